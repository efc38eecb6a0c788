"""break/return on a tensor condition inside a Python loop (reference:
loop_control_flow_illegal_cases_test.py).

As TensorFlow (and the guide's `buggy_py_for_tf_break`), this raises
NotImplementedError (a TypeError too) while tracing: "not supported in
Python for loops" / "condition of while loop started as non-Tensor, then
changed to Tensor", located at the user's loop. So does a `return` in both
branches of the tensor `if`: the staged conditional's outputs are tensors
(as TensorFlow's cond makes them), the return flag too, and the loop's
condition then depends on it. A loop that runs zero times never raises.
"""
from __future__ import annotations

import inspect
import re

import pytest

import autograph_cli.tf as tf


def staged_break_in_py_for(xs):
    acc = 0
    for v in xs:
        if tf.greater(v % 2, 0):
            break
        acc += v
    return acc


def staged_return_in_py_for(xs):
    acc = 0
    for v in xs:
        if tf.greater(v % 2, 0):
            return acc
        else:
            return acc
        acc += v
    return acc


def staged_break_in_py_while(n):
    acc = 0
    while n > 0:
        n -= 1
        if tf.greater(n % 2, 0):
            break
        acc += n
    return acc


def staged_return_in_py_while(n):
    acc = 0
    while n > 0:
        n -= 1
        if tf.greater(n % 2, 0):
            return acc
        else:
            return acc
        acc += n
    return acc


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def for_error(fn):
    line = _line_of(fn, "for v in xs:")
    return (rf"^\S+loop_control_flow_illegal_cases_test\.py:{line}: .*not supported in Python for loops: the "
            rf"`for` loop at line {line}")


def while_error(fn):
    line = _line_of(fn, "while n > 0:")
    return re.compile(rf"^\S+loop_control_flow_illegal_cases_test\.py:{line}: The condition of while loop "
                      r"started as non\-Tensor, then changed to Tensor.*", re.DOTALL)


FOR_ERROR = for_error(staged_break_in_py_for)
WHILE_ERROR = while_error(staged_break_in_py_while)


@pytest.mark.parametrize("xs", ([1], [1, 2], [1, 2, 3], [2, 4, 5]))
def test_tf_break_in_py_for(ref, xs):
    for exc in (NotImplementedError, TypeError):
        ref.raises(exc, FOR_ERROR, staged_break_in_py_for, xs)


@pytest.mark.parametrize("n", (1, 2, 3))
def test_tf_break_in_py_while(ref, n):
    for exc in (NotImplementedError, TypeError):
        ref.raises(exc, WHILE_ERROR, staged_break_in_py_while, n)


@pytest.mark.parametrize("xs", ([1], [1, 2], [1, 2, 3], [2, 4, 5]))
def test_tf_return_in_both_branches_in_py_for(ref, xs):
    # both branches return: the return flag the conditional leaves is a
    # tensor (True either way), which the Python loop cannot test
    for exc in (NotImplementedError, TypeError):
        ref.raises(exc, for_error(staged_return_in_py_for), staged_return_in_py_for, xs)


@pytest.mark.parametrize("n", (1, 2, 3))
def test_tf_return_in_both_branches_in_py_while(ref, n):
    for exc in (NotImplementedError, TypeError):
        ref.raises(exc, while_error(staged_return_in_py_while), staged_return_in_py_while, n)


def test_zero_trip_python_loops_never_raise(ref):
    ref.matches_eager(staged_break_in_py_for, [])
    ref.matches_eager(staged_break_in_py_while, 0)
    ref.matches_eager(staged_return_in_py_for, [])
    ref.matches_eager(staged_return_in_py_while, 0)


def staged_continue_in_py_for(xs, t):
    acc = 0
    for v in xs:
        if tf.equal(v, t):
            continue
        acc += v
    return acc


def staged_if_in_py_while(n, t):
    acc = 0
    while n > 0:
        n -= 1
        if tf.greater(t, n):
            acc += n
    return acc


@pytest.mark.parametrize("xs", ([], [1], [1, 2, 3]))
def test_tf_continue_and_tf_if_in_python_loops_are_legal(ref, xs):
    # a `continue` guards the rest of the body with a staged conditional,
    # as an `if` that only assigns: neither needs the loop to stop
    ref.matches_eager(staged_continue_in_py_for, xs, tf.constant(2))
    ref.matches_eager(staged_if_in_py_while, len(xs), tf.constant(2))

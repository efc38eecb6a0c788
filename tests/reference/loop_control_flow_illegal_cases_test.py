"""break/return on a tensor condition inside a Python loop (reference:
loop_control_flow_illegal_cases_test.py).

As TensorFlow (and the guide's `buggy_py_for_tf_break`), this raises
NotImplementedError (a TypeError too) while tracing: "not supported in
Python for loops" / "condition of while loop started as non-Tensor, then
changed to Tensor", located at the user's loop. A `return` in both branches
of the tensor `if` returns on the first iteration whichever branch runs:
there the answer is Python's (README, Differences from TensorFlow).
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


FOR_LINE = _line_of(staged_break_in_py_for, "for v in xs:")
WHILE_LINE = _line_of(staged_break_in_py_while, "while n > 0:")
FOR_ERROR = (rf"^\S+loop_control_flow_illegal_cases_test\.py:{FOR_LINE}: .*not supported in Python for loops: the "
             rf"`for` loop at line {FOR_LINE}")
WHILE_ERROR = re.compile(rf"^\S+loop_control_flow_illegal_cases_test\.py:{WHILE_LINE}: The condition of while loop "
                         r"started as non\-Tensor, then changed to Tensor.*", re.DOTALL)


@pytest.mark.parametrize("xs", ([1], [1, 2], [1, 2, 3], [2, 4, 5]))
def test_tf_break_in_py_for(ref, xs):
    for exc in (NotImplementedError, TypeError):
        ref.raises(exc, FOR_ERROR, staged_break_in_py_for, xs)


@pytest.mark.parametrize("n", (1, 2, 3))
def test_tf_break_in_py_while(ref, n):
    for exc in (NotImplementedError, TypeError):
        ref.raises(exc, WHILE_ERROR, staged_break_in_py_while, n)


@pytest.mark.parametrize("xs", ([], [1], [1, 2], [1, 2, 3], [2, 4, 5]))
def test_tf_return_in_both_branches_in_py_for(ref, xs):
    # both branches return: the first iteration returns whichever runs
    ref.matches_eager(staged_return_in_py_for, xs)


@pytest.mark.parametrize("n", (0, 1, 2, 3))
def test_tf_return_in_both_branches_in_py_while(ref, n):
    ref.matches_eager(staged_return_in_py_while, n)


def test_zero_trip_python_loops_never_raise(ref):
    ref.matches_eager(staged_break_in_py_for, [])
    ref.matches_eager(staged_break_in_py_while, 0)


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

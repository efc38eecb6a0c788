"""Loops and conditionals nested in each other, in context managers and in
try (reference: nested_control_flow_test.py)."""
from __future__ import annotations

import pytest

import autograph_cli.tf as tf
from reference.base import int_tensor, product


def if_in_if(x, y):
    z = 0
    if x > 0:
        if y > 0:
            z = x + y
    return z


def inner_if_reads_outer(x):
    y = 0
    if x > 0:
        y = -2 * x
        if y > 0:
            x = -3 * x
    else:
        y = 4 * x
    return x, y


def imbalanced_inner_if(x):
    y = 0
    if x > 0:
        if x < 3:
            y = -2 * x
            x = -3 * x
    return x, y


def _raise_for_control():
    raise ValueError("exception used for control flow")


def assignment_skipped_by_exception(x):
    y = 0
    if x > 0:
        try:
            if x > 1:
                _raise_for_control()
            y = 1
        except ValueError:
            pass
        if y == 0:
            y = 2
    return y


_counter = None


def nested_if_sets_global(x):
    y = 0
    if x > 0:
        if x > 0:
            global _counter
            if _counter is None:
                _counter = 1
            else:
                _counter += 1
            y += _counter
    return y


def for_in_for(a, b):
    p = 0
    for _ in a:
        inner = b
        for j in inner:
            p += j
    return p


def while_in_while(a, b):
    p = 0
    while a > 0:
        left = b
        while left > 0:
            p += 1
            left -= 1
        a -= 1
    return p


def for_in_for_dependent(a, b):
    r = 1
    s = 0
    for _ in a:
        r += s
        inner = b
        for j in inner:
            s += j
    return r


def while_in_while_dependent(a, b):
    r = 1
    while a > 0:
        r += 1
        left = b
        while left > 0:
            a -= 1
            left -= 1
        a -= 1
    return r


def if_in_for(a):
    k = 0
    for v in a:
        if v % 2 > 0:
            half = v // 2
            k += half
    return k


def continue_in_scope(x):
    z = 0
    while x > 0:
        with tf.name_scope(""):
            x = x - 1
            if x < 5:
                continue
            z = z + 1
    return z


def continue_in_try(x):
    z = 0
    while x > 0:
        x = x - 1
        try:
            if x < 5:
                continue
            z = z + 1
        finally:
            z = z + 10
    return z


def break_in_scope(x):
    z = 0
    while x > 0:
        with tf.name_scope(""):
            x = x - 1
            if x < 5:
                break
            z = z + 1
    return z


def break_in_try(x):
    z = 0
    while x > 0:
        x = x - 1
        try:
            if x < 5:
                break
            z = z + 1
        finally:
            z = z + 10
    return z


def loop_sets_same_type(n):
    for k in range(n):
        if k == 0:
            a = 1
        else:
            a = 2
    return a


def loop_sets_from_itself(n):
    for k in range(n):
        if k == 0:
            a = 1
        else:
            a = a + 1
    return a


@pytest.mark.parametrize("x,y,tx,ty", product((-1, 1), (-1, 1), (int, int_tensor), (int, int_tensor)))
def test_independent_ifs(ref, x, y, tx, ty):
    ref.matches_eager(if_in_if, tx(x), ty(y))


@pytest.mark.parametrize("x,type_", product((-1, 1), (int, int_tensor)))
def test_dependent_inner_if(ref, x, type_):
    ref.matches_eager(inner_if_reads_outer, type_(x))


@pytest.mark.parametrize("x,type_", product((-1, 1), (int, int_tensor)))
def test_dependent_imbalanced_inner_if(ref, x, type_):
    ref.matches_eager(imbalanced_inner_if, type_(x))


@pytest.mark.parametrize("x", (-1, 0, 1, 2))
def test_if_with_local_modification_masked_by_exception(ref, x):
    ref.matches_eager(assignment_skipped_by_exception, x)


def test_if_nested_with_modification_of_global():
    global _counter
    _counter = None
    assert tf.function(nested_if_sets_global)(1) == 1
    assert _counter == 1


def test_if_nested_with_modification_of_global_not_executed():
    global _counter
    _counter = None
    assert tf.function(nested_if_sets_global)(0) == 0
    assert _counter is None


@pytest.mark.parametrize("a,b,ta,tb", product((0, 1, 2), (0, 1, 2), (range, tf.range), (range, tf.range)))
def test_independent_inner_for(ref, a, b, ta, tb):
    ref.matches_eager(for_in_for, ta(a), tb(b))


@pytest.mark.parametrize("a,b,ta,tb", product((0, 1, 2), (0, 1, 2), (int, int_tensor), (int, int_tensor)))
def test_independent_inner_while(ref, a, b, ta, tb):
    ref.matches_eager(while_in_while, ta(a), tb(b))


@pytest.mark.parametrize("a,b,ta,tb", product((0, 1, 2), (0, 1, 2), (range, tf.range), (range, tf.range)))
def test_dependent_inner_for(ref, a, b, ta, tb):
    ref.matches_eager(for_in_for_dependent, ta(a), tb(b))


@pytest.mark.parametrize("a,b,ta,tb", product((0, 1, 2, 3, 4), (0, 1, 2, 3, 4), (int, int_tensor), (int, int_tensor)))
def test_dependent_inner_while(ref, a, b, ta, tb):
    # TensorFlow skips int a with a tensor b (b/124378596): `a` becomes a
    # tensor inside the inner staged loop, so the outer Python loop's
    # condition becomes one: TensorFlow's NotImplementedError, as here.
    if ta is int and tb is int_tensor and a > 0:
        ref.raises(NotImplementedError, r"nested_control_flow_test\.py:106: The condition of while loop started as "
                   "non-Tensor, then changed to Tensor", while_in_while_dependent, a, tb(b))
        return
    ref.matches_eager(while_in_while_dependent, ta(a), tb(b))


@pytest.mark.parametrize("a,type_", product((0, 1, 2), (range, tf.range)))
def test_if_in_for(ref, a, type_):
    ref.matches_eager(if_in_for, type_(a))


@pytest.mark.parametrize("target,x,type_", product(
    (continue_in_scope, continue_in_try, break_in_scope, break_in_try), (0, 4, 10), (int, int_tensor)))
def test_jumps_in_context_manager_and_try(ref, target, x, type_):
    ref.matches_eager(target, type_(x))


@pytest.mark.parametrize("n,type_", product((1, 2), (int, int_tensor)))
def test_loop_initializing_invariant_variable_legal(ref, n, type_):
    ref.matches_eager(loop_sets_same_type, type_(n))


def test_loop_initializing_invariant_variable_illegal(ref):
    ref.raises(UnboundLocalError, "'a'", loop_sets_same_type, 0)
    ref.raises(tf.errors.InvalidArgumentError, "loop must iterate at least once", loop_sets_same_type, tf.constant(0))


@pytest.mark.parametrize("n", (1, 2))
def test_loop_initializing_variant_variable_legal(ref, n):
    ref.matches_eager(loop_sets_from_itself, n)


@pytest.mark.parametrize("n", (0, 1, 2))
def test_loop_initializing_variant_variable_illegal(ref, n):
    # `a = a + 1` reads `a`, unbound before the staged loop: TensorFlow's
    # ValueError; the error is also an UnboundLocalError (Python's error when
    # the read runs first). With 1 or 2 trips Python reads `a` only after the
    # first iteration bound it, which a staged loop cannot express.
    err = ref.raises(ValueError, "'a' must be defined before the loop", loop_sets_from_itself, tf.constant(n))
    assert isinstance(err, UnboundLocalError)

"""Several returns, some under conditionals, context managers and try
(reference: early_return_test.py)."""
from __future__ import annotations

import pytest

import autograph_cli.tf as tf
from reference.base import product


def return_or_square(x):
    if x > 0:
        tf.print("x", x)
        return x
    return x * x


def return_local_or_stacked(c):
    t = tf.constant(1)
    if c:
        return t
    t = tf.stack([t, t])
    return tf.reduce_sum(t)


def may_fall_off(x):
    if x > 0:
        if x < 5:
            return x
    else:
        return x * x * x


def every_branch_returns(x):
    if x > 0:
        if x < 5:
            return x
        else:
            return x * x
    else:
        return x * x * x


def maybe_return_then_loop(c1, c2, n):
    if c1:
        if c2:
            return 1
    for _ in range(n):
        pass
    return 2


def returns_in_scopes(x):
    with tf.name_scope(""):
        if x > 0:
            if x < 5:
                with tf.name_scope(""):
                    return x
            else:
                return x * x
        else:
            return x * x * x


def unreachable_final_return(x):
    with tf.name_scope(""):
        if x > 0:
            if x < 5:
                with tf.name_scope(""):
                    return x
            else:
                return x * x
        else:
            return x * x * x
    return x * x * x * x


def default_return_in_scope(x):
    with tf.name_scope(""):
        if x > 0:
            return 1
        return 0


def return_in_try_finally(x):
    try:
        if x > 0:
            return 1
        else:
            return 0
    finally:
        x = x + 1


def default_return_in_try_finally(x):
    try:
        if x > 0:
            return 1
        return 0
    finally:
        x = x + 1


def _fails():
    raise ValueError()


def raise_in_return_caught():
    try:
        return _fails()
    except ValueError:
        pass
    return 1


def raise_in_return_caught_after_branch(c):
    if c:
        return 2
    try:
        return _fails()
    except ValueError:
        pass
    return 1


@pytest.mark.parametrize("n,type_", product((0, 1), (int, tf.constant)))
def test_return_with_default(ref, n, type_):
    ref.matches_eager(return_or_square, type_(n))


@pytest.mark.parametrize("c,type_", product((True, False), (int, tf.constant)))
def test_return_dependent_on_local(ref, c, type_):
    ref.matches_eager(return_local_or_stacked, type_(c))


@pytest.mark.parametrize("n", (0, 3, 5))
def test_return_possibly_undefined_legal(ref, n):
    ref.matches_eager(may_fall_off, n)


@pytest.mark.parametrize("n", (0, 3, 5))
def test_return_possibly_undefined_illegal(ref, n):
    ref.raises(ValueError, "else branch must also have a return", may_fall_off, tf.constant(n))


@pytest.mark.parametrize("n,type_", product((-1, 3, 6), (int, tf.constant)))
def test_nested_ifs(ref, n, type_):
    ref.matches_eager(every_branch_returns, type_(n))


@pytest.mark.parametrize("c1,c2,n", product((True, False), (True, False), (0, 1, 2)))
def test_possible_return_before_loop(ref, c1, c2, n):
    ref.matches_eager(maybe_return_then_loop, c1, c2, n)


@pytest.mark.parametrize("c1,c2,n", product((True, False), (True, False), (0, 2)))
def test_possible_staged_return_before_loop(ref, c1, c2, n):
    # not in TensorFlow's file (it raises: the inner staged if returns on one
    # side only); every path returns, so here it is Python's answer
    ref.matches_eager(maybe_return_then_loop, tf.constant(c1), tf.constant(c2), tf.constant(n))


@pytest.mark.parametrize("x,type_", product((0, 3, 5), (int, tf.constant)))
def test_nested_ifs_and_context_managers(ref, x, type_):
    ref.matches_eager(returns_in_scopes, type_(x))


@pytest.mark.parametrize("x,type_", product((0, 3, 5), (int, tf.constant)))
def test_unreachable_return(ref, x, type_):
    ref.matches_eager(unreachable_final_return, type_(x))


@pytest.mark.parametrize("x,type_", product((0, 1), (int, tf.constant)))
def test_return_with_default_in_contexmanager(ref, x, type_):
    ref.matches_eager(default_return_in_scope, type_(x))


@pytest.mark.parametrize("x,type_", product((0, 1), (int, tf.constant)))
def test_return_in_try_finally(ref, x, type_):
    ref.matches_eager(return_in_try_finally, type_(x))


@pytest.mark.parametrize("x,type_", product((0, 1), (int, tf.constant)))
def test_return_with_default_try_finally(ref, x, type_):
    ref.matches_eager(default_return_in_try_finally, type_(x))


def test_raise_during_return_caught(ref):
    ref.matches_eager(raise_in_return_caught)


@pytest.mark.parametrize("c,type_", product((True, False), (int, tf.constant)))
def test_raise_during_return_caught_in_tail_branch(ref, c, type_):
    ref.matches_eager(raise_in_return_caught_after_branch, type_(c))


def return_in_finally(x):
    try:
        return 2
    finally:
        if x > 0:
            return 1  # noqa: B012
        else:
            return 0  # noqa: B012


def default_return_in_finally(x):
    try:
        return 2
    finally:
        if x > 0:
            return 1  # noqa: B012
        return 0  # noqa: B012


def return_in_finally_default_in_try(x):
    try:
        if x > 0:
            return 0
    finally:
        return 1  # noqa: B012


@pytest.mark.parametrize("target,x,type_", product(
    (return_in_finally, default_return_in_finally, return_in_finally_default_in_try), (0, 1), (int, tf.constant)))
def test_return_in_finally(ref, target, x, type_):
    ref.matches_eager(target, type_(x))


def finally_drops_the_exception(x, fail):
    # not in TensorFlow's file: a return in `finally` drops what the try
    # raised (and what its handlers raised), as Python does
    try:
        if fail:
            raise ValueError("dropped")
        x = x * 2
    except KeyError:
        x = -1
    else:
        x = x + 1
    finally:
        if x > 2:
            return x  # noqa: B012
        return -x  # noqa: B012


def finally_returns_in_a_loop(n):
    s = 0
    for i in range(n):
        try:
            s += i
        finally:
            if s > 2:
                return s  # noqa: B012
            return -s  # noqa: B012
    return 100


@pytest.mark.parametrize("x,fail,type_", product((1, 3), (False, True), (int, tf.constant)))
def test_return_in_finally_drops_the_exception(ref, x, fail, type_):
    ref.matches_eager(finally_drops_the_exception, type_(x), fail)


@pytest.mark.parametrize("n,type_", product((0, 1, 3), (int, tf.constant)))
def test_return_in_finally_in_a_loop(ref, n, type_):
    ref.matches_eager(finally_returns_in_a_loop, type_(n))


def finally_may_fall_through(x):
    try:
        return 2
    finally:
        if x > 0:
            return 1  # noqa: B012


def test_a_finally_that_may_end_without_a_return_stays_unconverted(ref):
    # Python drops the exception only on the path that returns: the function
    # runs as written, so under strict conversion it raises (TensorFlow
    # converts it, dropping nothing)
    assert finally_may_fall_through(1) == 1 and finally_may_fall_through(0) == 2
    ref.raises(NotImplementedError, "return inside finally", finally_may_fall_through, tf.constant(1))

"""Staged and Python `if` statements: the variables they assign, create,
delete or set to None (reference: cond_basic_test.py)."""
from __future__ import annotations

import re

import pytest

import autograph_cli.tf as tf
from reference.base import product


def bump_if(c, v):
    v.assign(0)
    if c:
        v.assign_add(1)
    return v.read_value()


def bump_if_else(c, v):
    v.assign(0)
    if c:
        v.assign_add(1)
    else:
        v.assign_add(2)
    return v.read_value()


def one_var_if(n):
    k = 0
    if k < n:
        k += 1
    return k


def one_var_if_else(n):
    k = 0
    if k < n:
        k += 1
    else:
        k += 2
    return k


def two_vars_if(n):
    k = 0
    m = 1
    if k < n:
        k += 1
        m *= 10
    return k, m


def two_vars_if_else(n):
    k = 0
    m = 1
    if k < n:
        k += 1
        m *= 10
    else:
        k += 2
        m *= 20
    return k, m


def created_in_if(c):
    if c:
        k = 1
    return k


def created_in_both(c):
    if c:
        k = 1
    else:
        k = 2
    return k


def created_in_else(c):
    if c:
        pass
    else:
        k = 2
    return k


def deleted_in_if(c):
    k = 1
    if c:
        del k
    return k


def deleted_in_both(c):
    k = 1
    if c:
        del k
    else:
        del k
    return k


def deleted_in_else(c):
    k = 2
    if c:
        pass
    else:
        del k
    return k


def none_in_if(c):
    k = 0
    m = 1
    if c:
        k = None
        m = 2
    return k, m


def none_in_both(c):
    if c:
        k = None
        m = 1
    else:
        k = None
        m = 2
    return k, m


def none_in_else(c):
    k = 1
    m = 1
    if c:
        pass
    else:
        k = None
        m = 2
    return k, m


def branch_local_in_if(c):
    k = 0
    if c:
        t = 1
        k = t + 1
    return k


def branch_local_in_both(c):
    k = 0
    if c:
        t = 1
    else:
        t = 2
        k = t + 1
    return k


def modified_local_in_if(c):
    k = 0
    t = 2
    if c:
        t = t + 1
        k = t + 1
    return k


def ifs_in_sequence(n1, n2):
    acc = 0
    k = 0
    if k < n1:
        acc = acc * 10 + k
        k += 1
    k = 0
    if k < n2:
        acc = acc * 10 + k
        k += 1
    return acc


def if_elses_in_sequence(n1, n2):
    acc = 0
    k = 0
    if k < n1:
        acc = acc * 10 + k
        k += 1
    else:
        acc = acc * 11 + k
        k += 2
    k = 0
    if k < n2:
        acc = acc * 10 + k
        k += 1
    else:
        acc = acc * 11 + k
        k += 2
    return acc


def ifs_nested(n1, n2):
    k = 0
    out = 0
    if k < n1:
        m = 0
        acc = 0
        if m < n2:
            acc = acc * 10 + k * m
            m += 1
        out = out * 1000 + acc
        k += 1
    return out


def returns_in_inner_if_only(c1, c2):
    if c1:
        if c2:
            return 1
    return 2


def if_elses_nested(n1, n2):
    k = 0
    out = 0
    if k < n1:
        m = 0
        acc = 0
        if m < n2:
            acc = acc * 10 + k * m
            m += 1
        else:
            acc = acc * 11 + k * m
            m += 2
        out = out * 1000 + acc
        k += 1
    else:
        m = 0
        acc = 0
        if m < n2:
            acc = acc * 12 + k * m
            m += 3
        else:
            acc = acc * 13 + k * m
            m += 4
        out = out * 2000 + acc
        k += 1
    return out


@pytest.mark.parametrize("target,c,type_", product((bump_if, bump_if_else), (True, False), (bool, tf.constant)))
def test_no_vars(ref, target, c, type_):
    ref.matches_eager(target, type_(c), tf.Variable(0))


@pytest.mark.parametrize("target,n,type_", product(
    (one_var_if, one_var_if_else, two_vars_if, two_vars_if_else), (0, 1), (int, tf.constant)))
def test_several_vars(ref, target, n, type_):
    ref.matches_eager(target, type_(n))


def test_var_lifetime_imbalanced_legal(ref):
    ref.matches_eager(created_in_if, True)
    ref.matches_eager(created_in_else, False)
    ref.matches_eager(deleted_in_if, False)
    ref.matches_eager(deleted_in_else, True)


@pytest.mark.parametrize("c,type_", product((True, False), (int, tf.constant)))
def test_if_else_var_lifetime(ref, c, type_):
    c = type_(c)
    ref.matches_eager(created_in_both, c)
    if type_ is int:
        ref.raises(UnboundLocalError, "'k' is used before assignment", deleted_in_both, c)
    else:
        # deleted in both branches of a staged if and read after it:
        # TensorFlow's ValueError "'k' must also be initialized", which is
        # also Python's UnboundLocalError
        err = ref.raises(ValueError, "'k' must also be initialized", deleted_in_both, c)
        assert isinstance(err, UnboundLocalError)


@pytest.mark.parametrize("target,c,type_,exc,regex", [
    (created_in_if, False, bool, UnboundLocalError, "'k' is used before assignment"),
    (created_in_if, True, tf.constant, ValueError, "'k' must also be initialized in the else branch"),
    (created_in_if, False, tf.constant, ValueError, "'k' must also be initialized in the else branch"),
    (created_in_else, True, bool, UnboundLocalError, "'k' is used before assignment"),
    (created_in_else, True, tf.constant, ValueError, "'k' must also be initialized in the main branch"),
    (created_in_else, False, tf.constant, ValueError, "'k' must also be initialized in the main branch"),
])
def test_creates_var_imbalanced_illegal(ref, target, c, type_, exc, regex):
    ref.raises(exc, regex, target, type_(c))


def test_returns_none_legal(ref):
    ref.matches_eager(none_in_if, True)
    ref.matches_eager(none_in_both, False)
    ref.matches_eager(none_in_else, False)


@pytest.mark.parametrize("target,c", product((none_in_if, none_in_else, none_in_both), (True, False)))
def test_returns_none_illegal(ref, target, c):
    # None on one side of a staged if, or on both: TensorFlow's "'k' is None"
    # error (None has no tensor form).
    ref.raises(ValueError, re.compile("'k' is None", re.DOTALL), target, tf.constant(c))


def returns_none_in_both(c):
    if c:
        return None
    else:
        return None


@pytest.mark.parametrize("c", (True, False))
def test_returning_none_in_both_branches(ref, c):
    # a function returning None on both sides of a staged if returns None
    ref.matches_eager(returns_none_in_both, tf.constant(c))


@pytest.mark.parametrize("target,c,type_", product(
    (branch_local_in_if, branch_local_in_both, modified_local_in_if), (True, False), (bool, tf.constant)))
def test_local_vars(ref, target, c, type_):
    ref.matches_eager(target, type_(c))


@pytest.mark.parametrize("c1,c2", product((True, False), (True, False)))
def test_nested_if_temporarily_undefined_return_legal(ref, c1, c2):
    ref.matches_eager(returns_in_inner_if_only, c1, c2)


@pytest.mark.parametrize("c1,c2", product((True, False), (True, False)))
def test_nested_if_temporarily_undefined_return_staged(ref, c1, c2):
    # TensorFlow raises "must also have a return" (the inner staged if returns
    # on one side only). Every path of the function returns, so here the
    # return flag is carried through both conds and the answer is Python's
    # (README, Differences from TensorFlow: returns under staged conditions).
    ref.matches_eager(returns_in_inner_if_only, tf.constant(c1), tf.constant(c2))


@pytest.mark.parametrize("target,n1,t1,n2,t2", product(
    (ifs_in_sequence, if_elses_in_sequence, ifs_nested, if_elses_nested),
    (0, 1), (bool, tf.constant), (0, 1), (bool, tf.constant)))
def test_composition(ref, target, n1, t1, n2, t2):
    ref.matches_eager(target, t1(n1), t2(n2))

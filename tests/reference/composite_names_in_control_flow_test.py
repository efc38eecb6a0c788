"""Items of dicts and lists assigned in staged control flow are carried like
plain variables (reference: composite_names_in_control_flow_test.py)."""
from __future__ import annotations

import pytest

import autograph_cli.tf as tf
from reference.base import product


def dict_item_in_if(a):
    d = {"a": a}
    if d["a"] > 0:
        d["b"] = 1
    else:
        d["b"] = -1
    return d


def list_item_in_if(a):
    xs = [a, 0]
    if xs[0] > 0:
        xs[1] = 1
    else:
        xs[1] = -1
    return xs


def dict_item_in_if_only(a):
    d = {"a": a}
    if d["a"] > 0:
        d["b"] = 1
    return d


def dict_item_in_else_only(a):
    d = {"a": a}
    if d["a"] > 0:
        pass
    else:
        d["b"] = 1
    return d


def nested_item_in_if_only(a):
    d = {"a": {"a": a}}
    if d["a"]["a"] > 0:
        d["a"]["b"] = 1
    return d


def nested_item_in_else_only(a):
    d = {"a": {"a": a}}
    if d["a"]["a"] > 0:
        pass
    else:
        d["a"]["b"] = 1
    return d


def missing_key_in_both(a):  # a bug: d['b'] does not exist
    d = {"a": {"a": a}}
    if d["a"]["a"] > 0:
        d["b"]["a"] = 1
    else:
        d["b"]["a"] = -1
    return d


def missing_key_in_if(a):  # a bug: d['b'] does not exist
    d = {"a": {"a": a}}
    if d["a"]["a"] > 0:
        d["b"]["a"] = 1
    return d


def dict_item_in_while(x, a, b):
    d = {"a": a, "b": b}
    while x > 0:
        x -= 1
        d["a"] += 1
    return d


def list_item_in_while(x, a, b):
    xs = [a, b]
    while x > 0:
        x -= 1
        xs[0] += 1
    return xs


def dict_state_only_while(a, b):
    d = {"a": a, "b": b}
    while d["b"] <= 10:
        d["a"] += 1
        d["b"] *= 2
    return d


def list_state_only_while(a, b):
    xs = [a, b]
    while xs[1] <= 10:
        xs[0] += 1
        xs[1] *= 2
    return xs


def while_adds_key(b):
    d = {"b": b}
    while d["b"] <= 10:
        d["a"] = d["b"] + 1
        d["b"] *= 2
    return d


def dict_item_in_for(n, x, a, b):
    d = {"a": a, "b": b}
    for k in range(n):
        x -= 1
        d["a"] += k
    return d


def list_item_in_for(n, x, a, b):
    xs = [a, b]
    for k in range(n):
        x -= 1
        xs[0] += k
    return xs


def dict_state_only_for(n, a, b):
    d = {"a": a, "b": b}
    for _ in range(n):
        d["a"] += 1
    return d


def list_state_only_for(n, a, b):
    xs = [a, b]
    for _ in range(n):
        xs[0] += 1
    return xs


def for_adds_key(n, x):
    d = {}
    for k in range(n):
        x -= k
        d["a"] = x
    return d


@pytest.mark.parametrize("target,a,type_", product((dict_item_in_if, list_item_in_if), (0, 1), (bool, tf.constant)))
def test_if_basic(ref, target, a, type_):
    ref.matches_eager(target, type_(a))


@pytest.mark.parametrize("target,a", product(
    (dict_item_in_if_only, dict_item_in_else_only, nested_item_in_if_only, nested_item_in_else_only), (0, 1)))
def test_if_imbalanced_legal(ref, target, a):
    ref.matches_eager(target, a)


@pytest.mark.parametrize("target,a,type_,exc,regex", [
    (dict_item_in_if_only, 0, tf.constant, ValueError, r"'d\['b'\]' must also be initialized in the else"),
    (dict_item_in_if_only, 1, tf.constant, ValueError, r"'d\['b'\]' must also be initialized in the else"),
    (dict_item_in_else_only, 0, tf.constant, ValueError, r"'d\['b'\]' must also be initialized in the main"),
    (dict_item_in_else_only, 1, tf.constant, ValueError, r"'d\['b'\]' must also be initialized in the main"),
    (nested_item_in_if_only, 0, tf.constant, ValueError, r"'d\['a'\]\['b'\]' must also be initialized in the else"),
    (nested_item_in_if_only, 1, tf.constant, ValueError, r"'d\['a'\]\['b'\]' must also be initialized in the else"),
    (nested_item_in_else_only, 0, tf.constant, ValueError, r"'d\['a'\]\['b'\]' must also be initialized in the main"),
    (nested_item_in_else_only, 1, tf.constant, ValueError, r"'d\['a'\]\['b'\]' must also be initialized in the main"),
    (missing_key_in_both, 1, int, KeyError, "'b'"),
    (missing_key_in_both, 1, tf.constant, KeyError, "'b'"),
    (missing_key_in_both, 0, tf.constant, KeyError, "'b'"),
    (missing_key_in_if, 1, int, KeyError, "'b'"),
    (missing_key_in_if, 1, tf.constant, KeyError, "'b'"),
    (missing_key_in_if, 0, tf.constant, KeyError, "'b'"),
])
def test_if_imbalanced_illegal(ref, target, a, type_, exc, regex):
    ref.raises(exc, regex, target, type_(a))


@pytest.mark.parametrize("target,x,type_,a", product(
    (dict_item_in_while, list_item_in_while), (0, 1, 2), (bool, tf.constant), (3, 7)))
def test_while_basic(ref, target, x, type_, a):
    ref.matches_eager(target, type_(x), a, 0)


@pytest.mark.parametrize("target,type_,b", product(
    (dict_state_only_while, list_state_only_while), (bool, tf.constant), (3, 4, 5, 6)))
def test_while_state_only(ref, target, type_, b):
    ref.matches_eager(target, 0, type_(b))


@pytest.mark.parametrize("b,type_", product((5, 10, 11), (int, tf.constant)))
def test_while_imbalanced_legal(ref, b, type_):
    if b == 11 and type_ is tf.constant:
        pytest.skip("zero trips: see test_while_imbalanced_illegal")
    ref.matches_eager(while_adds_key, type_(b))


def test_while_imbalanced_illegal(ref):
    # the key is added only by the loop, which runs zero times (TensorFlow's Assert escapes the quotes)
    ref.raises(tf.errors.InvalidArgumentError, r"loop must iterate at least once to initialize d\[\\'a\\'\]",
               while_adds_key, tf.constant(11))


@pytest.mark.parametrize("target,n,type_", product((dict_item_in_for, list_item_in_for), (0, 1, 2), (bool, tf.constant)))
def test_for_basic(ref, target, n, type_):
    ref.matches_eager(target, type_(n), 1, 1, 1)


@pytest.mark.parametrize("target,n,type_", product(
    (dict_state_only_for, list_state_only_for), (0, 1, 2), (bool, tf.constant)))
def test_for_state_only(ref, target, n, type_):
    ref.matches_eager(target, type_(n), 1, 1)


@pytest.mark.parametrize("n,type_", product((0, 1, 2), (int, tf.constant)))
def test_for_imbalanced_legal(ref, n, type_):
    if n == 0 and type_ is tf.constant:
        pytest.skip("zero trips: see test_for_imbalanced_illegal")
    ref.matches_eager(for_adds_key, type_(n), 0)


def test_for_imbalanced_illegal(ref):
    ref.raises(tf.errors.InvalidArgumentError, r"loop must iterate at least once to initialize d\[\\'a\\'\]",
               for_adds_key, tf.constant(0), 0)

"""Loops over Python values, tensors, datasets and iterators (reference:
loop_basic_test.py)."""
from __future__ import annotations

import functools

import pytest

import autograph_cli.tf as tf
from reference.base import int_dataset, int_tensor, product


def count_while(n, v):
    v.assign(0)
    while v.read_value() < n:
        v.assign_add(1)
    return v.read_value()


def count_for(items, v):
    v.assign(0)
    for _ in items:
        v.assign_add(1)
    return v.read_value()


def while_one(n):
    k = 0
    while k < n:
        k = k * 10 + 1
    return k


def for_one(items):
    k = 0
    for k in items:
        pass
    return k


def while_two(n):
    acc = 0
    k = 0
    while k < n:
        acc = acc * 10 + k
        k += 1
    return acc


def for_two(items):
    acc = 0
    for k in items:
        acc = acc * 10 + k
    return acc


def while_with_else(x, y):
    acc = 0
    while x > 0:
        x -= 1
        if x > y:
            break
        acc += x
    else:
        acc = -100
    return acc


def for_with_else(xs, stop):
    acc = 0
    for c in xs:
        if c in stop:
            break
        acc = acc * 10 + c
    else:
        acc = -1000
    return acc


def while_makes_var(n):
    k = 0
    while k < n:
        k = n + 1
        m = k + 1
    return k, m


def for_makes_var(items):
    for k in items:
        pass
    return k


def whiles_in_sequence(n1, n2):
    acc = 0
    k = 0
    while k < n1:
        acc = acc * 10 + k
        k += 1
    k = 0
    while k < n2:
        acc = acc * 10 + k
        k += 1
    return acc


def fors_in_sequence(xs, ys):
    acc = 0
    for k in xs:
        acc = acc * 10 + k
    for k in ys:
        acc = acc * 10 + k
    return acc


def whiles_nested(n1, n2):
    k = 0
    rows = tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=())
    while k < n1:
        m = 0
        acc = 0
        while m < n2:
            acc = acc * 10 + k * m
            m += 1
        rows = rows.write(k, acc)
        k += 1
    return rows.stack()


def fors_nested(grid):
    rows = tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=())
    for row in grid:
        acc = 0
        for x in row:
            acc = acc * 10 + x
        rows = rows.write(rows.size(), acc)
    return rows.stack()


def _pairs_of_pairs(values, kinds):
    return [(a, ka, b, kb) for a in values for ka in kinds for b in values for kb in kinds]


@pytest.mark.parametrize("n,type_", product((0, 1, 2), (int, int_tensor)))
def test_while_no_vars(ref, n, type_):
    ref.matches_eager(count_while, type_(n), tf.Variable(0))


@pytest.mark.parametrize("items,type_,xla", product(([], [1], [1, 2]), (list, int_tensor), (True, False)))
def test_for_no_vars(ref, items, type_, xla):
    if type_ is int_tensor and xla and not items:
        pytest.skip("empty loops are not supported by XLA (as in TensorFlow)")
    ref.matches_eager(count_for, type_(items), tf.Variable(0), xla=xla)


@pytest.mark.parametrize("items", ([], [1], [1, 2]))
def test_for_no_vars_ds_iterator(ref, items):
    ref.matches_eager_stateful(count_for, lambda: (iter(int_dataset(items)), tf.Variable(0)))


@pytest.mark.parametrize("n,type_", product((0, 1, 2), (int, int_tensor)))
def test_while_one_var(ref, n, type_):
    ref.matches_eager(while_one, type_(n))


@pytest.mark.parametrize("items,type_,xla", product(([], [1], [1, 2]), (list, int_tensor, int_dataset), (True, False)))
def test_for_one_var(ref, items, type_, xla):
    if type_ is int_dataset and xla:
        pytest.skip("datasets are not supported by XLA (as in TensorFlow)")
    if type_ is int_tensor and xla and not items:
        pytest.skip("empty loops are not supported by XLA (as in TensorFlow)")
    ref.matches_eager(for_one, type_(items), xla=xla)


@pytest.mark.parametrize("items", ([], [1], [1, 2]))
def test_for_one_var_ds_iterator(ref, items):
    ref.matches_eager_stateful(for_one, lambda: (iter(int_dataset(items)),))


@pytest.mark.parametrize("n,type_", product((0, 1, 2), (int, int_tensor)))
def test_while_two_vars(ref, n, type_):
    ref.matches_eager(while_two, type_(n))


@pytest.mark.parametrize("items,type_,xla", product(([], [1], [1, 2]), (list, int_tensor, int_dataset), (True, False)))
def test_for_two_vars(ref, items, type_, xla):
    if type_ is int_dataset and xla:
        pytest.skip("datasets are not supported by XLA (as in TensorFlow)")
    if type_ is int_tensor and xla and not items:
        pytest.skip("empty loops are not supported by XLA (as in TensorFlow)")
    ref.matches_eager(for_two, type_(items), xla=xla)


@pytest.mark.parametrize("items", ([], [1], [1, 2]))
def test_for_two_vars_ds_iterator(ref, items):
    ref.matches_eager_stateful(for_two, lambda: (iter(int_dataset(items)),))


@pytest.mark.parametrize("xs,stop,type_", product(([], [1, 2]), ([], [1, 2]), (list, int_tensor)))
def test_for_else(ref, xs, stop, type_):
    # As in TensorFlow, whose autograph refuses a loop's else clause: under
    # strict conversion the call raises (for Python values too).
    ref.raises(NotImplementedError, "for/else statement not yet supported", for_with_else, type_(xs), type_(stop))


@pytest.mark.parametrize("xs,stop,type_", product(([], [1, 2]), ([], [1, 2]), (list, int_tensor)))
def test_for_else_without_strict_conversion(ref, monkeypatch, xs, stop, type_):
    # Converted (TensorFlow would run it as written): the else clause runs
    # under `if not break_N` (README: for/else).
    monkeypatch.delenv("AUTOGRAPH_STRICT_CONVERSION")
    if type_ is int_tensor:
        # `c in stop` on a staged tensor: a graph tensor is not iterable
        ref.raises(TypeError, "not iterable", for_with_else, type_(xs), type_(stop))
    else:
        ref.matches_eager(for_with_else, type_(xs), type_(stop))


@pytest.mark.parametrize("n1,n2,type_", product((0, 2), (0, 2), (int, int_tensor)))
def test_while_else(ref, n1, n2, type_):
    ref.raises(NotImplementedError, "while/else statement not yet supported", while_with_else, type_(n1), type_(n2))


@pytest.mark.parametrize("n1,n2,type_", product((0, 2), (0, 2), (int, int_tensor)))
def test_while_else_without_strict_conversion(ref, monkeypatch, n1, n2, type_):
    # Python's answer (README: while/else with staged loops).
    monkeypatch.delenv("AUTOGRAPH_STRICT_CONVERSION")
    ref.matches_eager(while_with_else, type_(n1), type_(n2))


@pytest.mark.parametrize("n,type_", product((1, 2), (int, int_tensor)))
def test_while_creates_var_legal(ref, n, type_):
    ref.matches_eager(while_makes_var, type_(n))


def test_while_creates_var_illegal(ref):
    ref.raises(UnboundLocalError, "'m' is used before assignment", while_makes_var, 0)
    ref.raises(tf.errors.InvalidArgumentError, "loop must iterate at least once", while_makes_var, tf.constant(0))


@pytest.mark.parametrize("items,type_", product(([1], [1, 2]), (list, int_tensor)))
def test_for_creates_var_legal(ref, items, type_):
    ref.matches_eager(for_makes_var, type_(items))


def test_for_creates_var_illegal(ref):
    ref.raises(UnboundLocalError, "'k' is used before assignment", for_makes_var, [])
    ref.raises(tf.errors.InvalidArgumentError, "loop must iterate at least once", for_makes_var, tf.constant([]))


@pytest.mark.parametrize("n1,t1,n2,t2", _pairs_of_pairs((0, 1, 2), (int, int_tensor)))
def test_successive_while_loops(ref, n1, t1, n2, t2):
    ref.matches_eager(whiles_in_sequence, t1(n1), t2(n2))


@pytest.mark.parametrize("l1,t1,l2,t2", _pairs_of_pairs(([], [1], [1, 2]), (list, int_tensor, int_dataset)))
def test_successive_for_loops(ref, l1, t1, l2, t2):
    ref.matches_eager(fors_in_sequence, t1(l1), t2(l2))


@pytest.mark.parametrize("l1,t1,l2,t2", _pairs_of_pairs(([], [1], [1, 2]), (list, int_dataset)))
def test_successive_for_loops_iterators(ref, l1, t1, l2, t2):
    ref.matches_eager_stateful(fors_in_sequence, lambda: (iter(t1(l1)), iter(t2(l2))))


@pytest.mark.parametrize("n1,t1,n2,t2", _pairs_of_pairs((0, 1, 2), (int, int_tensor)))
def test_nested_while_loops(ref, n1, t1, n2, t2):
    ref.matches_eager(whiles_nested, t1(n1), t2(n2))


@pytest.mark.parametrize("grid,type_", product(
    ([[]], [[], []], [[1]], [[1], [2]], [[1, 2]], [[1, 2], [3, 4]]), (int_tensor, int_dataset)))
def test_nested_for_loops_dense(ref, grid, type_):
    ref.matches_eager(fors_nested, type_(grid))


@pytest.mark.parametrize("grid,type_", product(
    ([[]], [[], [1]], [[], [1], [1, 2]]), (list, functools.partial(tf.ragged.constant, dtype=tf.int32))))
def test_nested_for_loops_ragged(ref, grid, type_):
    ref.matches_eager(fors_nested, type_(grid))


def test_nested_for_loops_mixed_list(ref):
    ref.matches_eager(fors_nested, [[], int_tensor([]), [1], int_tensor([1]), [1, 2]])

"""Loop variables whose shape changes under a shape invariant (reference:
loop_with_variable_type_test.py)."""
from __future__ import annotations

import collections

import pytest

import autograph_cli.tf as tf
from reference.base import product

Holder = collections.namedtuple("Holder", ["var"])


def while_grows_vector(n):
    v = tf.constant([0, 0])
    k = 0
    while k < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [k]), 0)
        k += 1
    return v


def for_grows_vector(xs):
    v = tf.constant([0, 0])
    for k in xs:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [k]), 0)
    return v


def while_grows_rows(n):
    m = tf.constant([[0]])
    k = 0
    while k < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape([None, 1]))])
        m = tf.concat((m, [[k]]), 0)
        k += 1
    return m


def for_grows_rows(xs):
    m = tf.constant([[0]])
    for k in xs:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape([None, 1]))])
        m = tf.concat((m, [[k]]), 0)
    return m


def while_grows_cols(n):
    m = tf.constant([[0, 0]])
    k = 0
    while k < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape([1, None]))])
        m = tf.concat((m, [[k]]), 1)
        k += 1
    return m


def for_grows_cols(xs):
    m = tf.constant([[0, 0]])
    for k in xs:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape([1, None]))])
        m = tf.concat((m, [[k]]), 1)
    return m


def while_pads_matrix(n):
    m = tf.constant([[0, 0], [0, 0]])
    k = 0
    while k < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape(None))])
        m = tf.pad(m, [[1, 1], [1, 1]], constant_values=k)
        k += 1
    return m


def for_pads_matrix(xs):
    m = tf.constant([[0, 0], [0, 0]])
    for k in xs:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape(None))])
        m = tf.pad(m, [[1, 1], [1, 1]], constant_values=k)
    return m


def while_grows_inside_if(n):
    v = tf.constant([0, 0])
    k = 0
    if n > 1:
        while k < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [k]), 0)
            k += 1
    else:
        v = tf.constant([1, 2, 3])
    return v


def for_grows_inside_if(n):
    v = tf.constant([0, 0])
    if n > 1:
        for k in range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [k]), 0)
            k += 1
    else:
        v = tf.constant([1, 2, 3])
    return v


def for_grows_inside_if_with_tuple(n):
    h = Holder(var=tf.constant([0]))
    v = tf.constant([0, 0])
    if n > 1:
        for k in range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [k]), 0)
            h = Holder(var=h.var + 1)
            k += 1
    else:
        v = tf.constant([1, 2, 3])
        h = Holder(var=tf.constant([3]))
    return v


def while_grows_then_breaks(n):
    v = tf.constant([0, 0])
    k = 0
    if n > 1:
        while k < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [k]), 0)
            k += 1
            if k > 3:
                break
    else:
        v = tf.constant([1, 2, 3])
    return v


def for_grows_then_breaks(n):
    v = tf.constant([0, 0])
    if n > 1:
        for k in range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [k]), 0)
            k += 1
            if k > 3:
                break
    else:
        v = tf.constant([1, 2, 3])
    return v


def while_sparse_grows_rank(n):
    v = tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[3, 3])
    k = 0
    while k < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape(None))])
        v = tf.sparse.expand_dims(v)
        k += 1
    return v


def for_sparse_grows_rank(xs):
    v = tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[3, 3])
    for _ in xs:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape(None))])
        v = tf.sparse.expand_dims(v)
    return v


def _int32_dataset_range(n):
    return tf.data.Dataset.range(n).map(lambda x: tf.cast(x, tf.int32))


@pytest.mark.parametrize("target,n,type_", product(
    (while_grows_vector, while_grows_rows, while_grows_cols, while_pads_matrix, while_grows_inside_if,
     for_grows_inside_if, for_grows_inside_if_with_tuple), (0, 1, 2), (int, tf.constant)))
def test_while_and_if(ref, target, n, type_):
    ref.matches_eager(target, type_(n))


@pytest.mark.parametrize("target,n,type_", product(
    (while_grows_then_breaks, for_grows_then_breaks), (0, 1, 2, 5), (int, tf.constant)))
def test_with_break(ref, target, n, type_):
    ref.matches_eager(target, type_(n))


@pytest.mark.parametrize("target,n,make", product(
    (for_grows_vector, for_grows_cols), (0, 1, 2), (range, tf.range, tf.data.Dataset.range)))
def test_for_growing_int64_or_int32(ref, target, n, make):
    # Dataset.range yields int64, concatenated to an int32 vector as `[i]`:
    # as TensorFlow's autopacking, the tensor in the Python list is cast to
    # the dtype the concat asks for (int32), eagerly and staged
    ref.matches_eager(target, make(n))


@pytest.mark.parametrize("target,n,make", product(
    (for_grows_rows, for_pads_matrix), (0, 1, 2), (range, tf.range, _int32_dataset_range)))
def test_for_growing(ref, target, n, make):
    ref.matches_eager(target, make(n))


@pytest.mark.parametrize("n,type_", product((0, 1, 2, 5), (int, tf.constant)))
def test_while_with_composite_tensor_shape_invariant(ref, n, type_):
    ref.matches_eager(while_sparse_grows_rank, type_(n))


@pytest.mark.parametrize("n,make", product((0, 1, 2), (range, tf.range, _int32_dataset_range)))
def test_for_with_composite_tensor_shape_invariant(ref, n, make):
    ref.matches_eager(for_sparse_grows_rank, make(n))

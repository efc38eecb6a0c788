"""tf.SparseTensor and tf.RaggedTensor: eager, and carried through staged
conditionals and loops as their component tensors."""
from __future__ import annotations

import numpy as np
import pytest

import autograph_cli.tf as tf


def test_sparse_dense_round_trip():
    dense = np.array([[0, 3, 0], [4, 0, 5]], np.int32)
    sp = tf.sparse.from_dense(tf.constant(dense))
    assert sp.indices.numpy().tolist() == [[0, 1], [1, 0], [1, 2]]
    assert sp.values.numpy().tolist() == [3, 4, 5]
    assert sp.shape == tf.TensorShape([2, 3])
    np.testing.assert_array_equal(tf.sparse.to_dense(sp).numpy(), dense)


def test_sparse_tensor_as_a_staged_loop_variable_and_in_a_cond():
    @tf.function
    def doubled(sp, n):
        for _ in tf.range(n):
            sp = tf.SparseTensor(sp.indices, sp.values * 2.0, sp.dense_shape)
        return tf.sparse.to_dense(sp)

    sp = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[2, 3])
    want = np.zeros([2, 3], np.float32)
    want[0, 0], want[1, 2] = 8.0, 16.0
    np.testing.assert_array_equal(doubled(sp, tf.constant(3)).numpy(), want)

    @tf.function
    def pick(x):
        if x > 0:
            s = tf.SparseTensor([[0]], [1], [2])
        else:
            s = tf.SparseTensor([[1]], [5], [2])
        return tf.sparse.to_dense(s)

    assert pick(tf.constant(1)).numpy().tolist() == [1, 0]
    assert pick(tf.constant(-1)).numpy().tolist() == [0, 5]


def test_ragged_tensor_eager_and_in_a_staged_loop():
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    assert rt.to_list() == [[1, 2], [3], [4, 5, 6]]
    assert rt.row_lengths().numpy().tolist() == [2, 1, 3]
    assert rt.to_tensor().numpy().tolist() == [[1, 2, 0], [3, 0, 0], [4, 5, 6]]

    @tf.function
    def bump(rt, n):
        for _ in tf.range(n):
            rt = rt + 1
        return rt.to_tensor()

    assert bump(rt, tf.constant(2)).numpy().tolist() == [[3, 4, 0], [5, 0, 0], [6, 7, 8]]
    again = tf.RaggedTensor.from_row_lengths(rt.values, [1, 2, 3])
    assert again.to_list() == [[1], [2, 3], [4, 5, 6]]


def test_a_composite_whose_component_changes_dtype_in_a_loop_names_the_variable():
    @tf.function
    def bad(sp, n):
        for _ in tf.range(n):
            sp = tf.SparseTensor(sp.indices, tf.cast(sp.values, tf.float32), sp.dense_shape)
        return sp.values

    with pytest.raises(TypeError, match="'sp' has dtype int32 before the loop, but dtype float32"):
        bad(tf.SparseTensor([[0]], [1], [2]), tf.constant(2))

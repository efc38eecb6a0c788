"""Integer segment means as TensorFlow computes them: SegmentMean (a kernel)
keeps the data's dtype and divides toward zero; unsorted_segment_mean (a
Python function over UnsortedSegmentSum there) divides with `/`, so integer
data gives float64 (int32/int64) or float32 (8/16-bit). Checked eagerly,
traced, and exported to ONNX, against numpy."""
from __future__ import annotations

import numpy as np
import pytest

import autograph_cli.tf as tf


def _np_segment_mean_trunc(x, ids, num):
    out = np.zeros((num,) + x.shape[1:], x.dtype)
    for s in range(num):
        rows = x[ids == s].astype(np.int64)
        if len(rows):
            tot = rows.sum(0)
            out[s] = np.sign(tot) * (np.abs(tot) // len(rows))  # C division: toward zero
    return out


def _np_unsorted_mean(x, ids, num, out_dtype):
    out = np.zeros((num,) + x.shape[1:], out_dtype)
    for s in range(num):
        rows = x[ids == s]
        if len(rows):
            out[s] = rows.astype(np.float64).sum(0) / len(rows)
    return out


X = np.array([[3, -5], [4, 2], [-7, 1], [9, 9], [-1, -2]], np.int32)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int16, np.uint8])
def test_segment_mean_int_keeps_dtype_and_rounds_toward_zero(dtype):
    x = np.abs(X).astype(dtype) if dtype == np.uint8 else X.astype(dtype)
    ids = np.array([0, 0, 1, 1, 3], np.int32)
    want = _np_segment_mean_trunc(x, ids, 4)
    eager = tf.math.segment_mean(x, ids)
    traced = tf.function(lambda a, i: tf.math.segment_mean(a, i))(tf.constant(x), tf.constant(ids))
    for got in (eager, traced):
        assert got.dtype.as_numpy_dtype == dtype
        np.testing.assert_array_equal(got.numpy(), want)
    if dtype != np.uint8:
        assert want[0, 1] == -1  # (-5 + 2) / 2 = -1.5 -> -1 (numpy's // would give -2)


@pytest.mark.parametrize("dtype,out", [(np.int32, np.float64), (np.int64, np.float64), (np.int8, np.float32),
                                       (np.int16, np.float32), (np.float32, np.float32)])
def test_unsorted_segment_mean_int_is_a_true_division(dtype, out):
    x = X.astype(dtype)
    ids = np.array([1, 1, 0, -1, 1], np.int32)  # a negative id is dropped; segment 2 is empty
    want = _np_unsorted_mean(x, ids, 3, out)
    eager = tf.math.unsorted_segment_mean(x, ids, 3)
    traced = tf.function(lambda a, i: tf.math.unsorted_segment_mean(a, i, 3))(tf.constant(x), tf.constant(ids))
    for got in (eager, traced):
        assert got.dtype.as_numpy_dtype == out
        assert got.shape == (3, 2)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_unsorted_segment_mean_int_rank2_ids_and_vector_data():
    x = np.arange(12, dtype=np.int32).reshape(2, 3, 2) - 5
    ids = np.array([[0, 2, 0], [2, 2, -1]], np.int32)
    want = np.zeros((3, 2))
    for s in range(3):
        rows = x[ids == s]
        if len(rows):
            want[s] = rows.mean(0)
    np.testing.assert_allclose(tf.math.unsorted_segment_mean(x, ids, 3).numpy(), want)
    v = np.array([4, -3, 6], np.int64)
    np.testing.assert_allclose(tf.math.unsorted_segment_mean(v, [0, 0, 1], 2).numpy(), [0.5, 6.0])


def test_integer_segment_means_export_to_onnx():
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from tests.test_onnx_export import check

    @tf.function
    def f(x, ids, uids):
        return tf.math.segment_mean(x, ids), tf.math.unsorted_segment_mean(x, uids, 4)

    check(f, (tf.TensorSpec([None, 2], tf.int32), tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.int32)),
          [(X, np.array([0, 0, 1, 1, 3], np.int32), np.array([1, 1, 0, -1, 3], np.int32))])
    assert onnx is not None

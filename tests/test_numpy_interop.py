"""numpy functions on tensors: eager tensors convert (results are numpy
values, as in TensorFlow); symbolic tensors refuse with TensorFlow's error."""
from __future__ import annotations

import numpy as np
import pytest

import autograph_cli.tf as tf


def test_numpy_functions_on_eager_tensors_return_numpy_values():
    t = tf.constant([1.0, 2.0])
    s = np.sum(t)
    assert isinstance(s, np.float32) and s == 3.0
    a = np.add(t, 1)
    assert isinstance(a, np.ndarray) and a.dtype == np.float32 and a.tolist() == [2.0, 3.0]
    assert np.concatenate([t, t]).tolist() == [1.0, 2.0, 1.0, 2.0]
    assert np.mean(tf.constant([[1, 3]])) == 2.0
    assert np.asarray(tf.constant([[1, 2]], tf.int64)).dtype == np.int64
    assert np.array_equal(np.exp(tf.zeros([2])), [1.0, 1.0])


def test_numpy_operands_on_the_left_give_tensors():
    t = tf.constant([1.0, 2.0])
    for r in (np.float32(2) * t, np.ones(2, np.float32) + t, np.float32(1) < t):
        assert isinstance(r, tf.Tensor)
    assert (np.ones(2, np.float32) + t).numpy().tolist() == [2.0, 3.0]


def test_symbolic_tensors_in_numpy_calls_raise_tensorflows_error():
    @tf.function(autograph=False)
    def f(x):
        return np.add(x, 1)

    with pytest.raises(NotImplementedError, match=r"Cannot convert a symbolic tf.Tensor \(x:0\) to a numpy array"):
        f(tf.constant(1.0))

    @tf.function(autograph=False)
    def g(x):
        return np.float32(2) * x

    assert g(tf.constant(1.5)).numpy() == 3.0

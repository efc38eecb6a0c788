"""tf.autodiff.ForwardAccumulator (runtime/forward_mode.py): Jacobian-vector
products equal the Jacobian (from numpy, or a finite difference) times the
tangent, eagerly and inside tf.function, for tensors and variables."""
from __future__ import annotations

import numpy as np

import autograph_cli.tf as tf


def _f(x, w):
    return tf.tanh(tf.linalg.matvec(w, x)) * tf.reduce_sum(x ** 2)


def _numeric_jvp(x, w, t, dw, eps=1e-6):
    def f(x, w):
        return np.tanh(w @ x) * (x ** 2).sum()
    return (f(x + eps * t, w + eps * dw) - f(x - eps * t, w - eps * dw)) / (2 * eps)


def test_jvp_eager_and_traced_matches_a_finite_difference():
    x = np.array([0.3, -0.2, 0.5])
    w = np.array([[1.0, 2.0, -1.0], [0.5, 0.0, 1.5]])
    t = np.array([1.0, -1.0, 2.0])
    dw = np.array([[0.1, 0.0, 0.2], [0.0, -0.3, 0.0]])
    want = _numeric_jvp(x, w, t, dw)

    def jvp(xt, wt):
        with tf.autodiff.ForwardAccumulator(primals=[xt, wt], tangents=[tf.constant(t), tf.constant(dw)]) as acc:
            y = _f(xt, wt)
        return acc.jvp(y)

    np.testing.assert_allclose(jvp(tf.constant(x), tf.constant(w)), want, rtol=1e-6)
    np.testing.assert_allclose(tf.function(jvp)(tf.constant(x), tf.constant(w)), want, rtol=1e-6)


def test_jvp_of_a_variable_structures_and_unconnected():
    v = tf.Variable([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([0.0, 1.0])) as acc:
        out = {"sq": v * v, "const": tf.constant(3.0)}
        inside = acc.jvp(out["sq"])  # also while recording
    got = acc.jvp(out)
    assert got["sq"].numpy().tolist() == [0.0, 4.0] and inside.numpy().tolist() == [0.0, 4.0]
    assert got["const"] is None
    zero = acc.jvp(out["const"], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert float(zero) == 0.0

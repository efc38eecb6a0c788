"""tf.nn ops: values against plain numpy loops, gradients against finite
differences, eager against traced."""
import math

import numpy as np
import pytest

import autograph_cli.tf as tf
from autograph_cli.runtime import nn_ops

RNG = np.random.default_rng(0)


def _f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _ref_conv(x, w, stride, padding):
    """Direct loops over output positions (the textbook definition)."""
    n, h, wd, c = x.shape
    kh, kw, _, co = w.shape
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-wd // stride)
        ph = max((oh - 1) * stride + kh - h, 0)
        pw = max((ow - 1) * stride + kw - wd, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, oh, ow, co), np.float64)
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                patch = x[b, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
                out[b, i, j] = np.tensordot(patch, w, axes=([0, 1, 2], [0, 1, 2]))
    return out


def _ref_pool(x, k, stride, padding, fn):
    n, h, wd, c = x.shape
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-wd // stride)
        ph = max((oh - 1) * stride + k - h, 0)
        pw = max((ow - 1) * stride + k - wd, 0)
        t, l = ph // 2, pw // 2
    else:
        oh, ow = (h - k) // stride + 1, (wd - k) // stride + 1
        t = l = 0
    out = np.zeros((n, oh, ow, c), np.float64)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = max(i * stride - t, 0), max(j * stride - l, 0)
            r1, c1 = min(i * stride - t + k, h), min(j * stride - l + k, wd)
            out[:, i, j, :] = fn(x[:, r0:r1, c0:c1, :], axis=(1, 2))
    return out


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("stride", [1, 2])
def test_conv2d_matches_loops(padding, stride):
    for c in (3, 40):  # both kernel strategies (im2col, per-tap matmul)
        x, w = _f32(2, 7, 6, c), _f32(3, 2, c, 5)
        y = tf.nn.conv2d(x, w, strides=stride, padding=padding)
        assert y.dtype == tf.float32
        np.testing.assert_allclose(y.numpy(), _ref_conv(x, w, stride, padding), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_pools_match_loops(padding):
    x = _f32(2, 7, 5, 3)
    for k, s in ((2, 2), (3, 1), (3, 2)):
        np.testing.assert_allclose(tf.nn.max_pool2d(x, k, s, padding).numpy(), _ref_pool(x, k, s, padding, np.max),
                                   rtol=1e-6)
        np.testing.assert_allclose(tf.nn.avg_pool2d(x, k, s, padding).numpy(), _ref_pool(x, k, s, padding, np.mean),
                                   rtol=1e-5, atol=1e-6)


def test_softmax_family():
    x = _f32(4, 6) * 10
    e = np.exp(x.astype(np.float64) - x.max(-1, keepdims=True))
    sm = e / e.sum(-1, keepdims=True)
    np.testing.assert_allclose(tf.nn.softmax(x).numpy(), sm, rtol=1e-5)
    np.testing.assert_allclose(tf.nn.log_softmax(x).numpy(), np.log(sm), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tf.nn.softmax(x, axis=0).numpy(), tf.transpose(tf.nn.softmax(x.T)).numpy(), rtol=1e-6)
    labels = RNG.integers(0, 6, size=4)
    onehot = np.eye(6, dtype=np.float32)[labels]
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x)
    dense = tf.nn.softmax_cross_entropy_with_logits(labels=onehot, logits=x)
    ref = -np.log(sm[np.arange(4), labels])
    np.testing.assert_allclose(sparse.numpy(), ref, rtol=1e-5)
    np.testing.assert_allclose(dense.numpy(), ref, rtol=1e-5)
    z = (RNG.random((4, 6)) > 0.5).astype(np.float32)
    sce = tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x)
    p = 1 / (1 + np.exp(-x.astype(np.float64)))
    np.testing.assert_allclose(sce.numpy(), -(z * np.log(p) + (1 - z) * np.log(1 - p)), rtol=1e-4, atol=1e-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="outside the valid range"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[7, 0, 0, 0], logits=x)


def test_activations_and_moments():
    x = _f32(3, 5)
    np.testing.assert_allclose(nn_ops.erf(x).numpy(), np.vectorize(math.erf)(x), atol=2e-7)
    gelu = 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
    np.testing.assert_allclose(tf.nn.gelu(x).numpy(), gelu, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tf.nn.softplus(x).numpy(), np.log1p(np.exp(x)), rtol=1e-5)
    np.testing.assert_allclose(tf.nn.l2_loss(x).numpy(), (x.astype(np.float64) ** 2).sum() / 2, rtol=1e-5)
    m, v = tf.nn.moments(x, axes=[0])
    np.testing.assert_allclose(m.numpy(), x.mean(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(v.numpy(), x.var(0), rtol=1e-5)
    np.testing.assert_allclose(tf.nn.bias_add(x, np.arange(5, dtype=np.float32)).numpy(), x + np.arange(5))


def test_dropout_rate_and_scale():
    tf.random.set_seed(1)
    x = np.ones((200, 50), np.float32)
    y = tf.nn.dropout(x, rate=0.25).numpy()
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.02
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    assert tf.nn.dropout(x, 0.0).numpy().sum() == x.sum()


def _numeric_grad(f, x, eps=1e-3):
    x = x.astype(np.float64)
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        a, b = x.copy(), x.copy()
        a[idx] += eps
        b[idx] -= eps
        g[idx] = (f(a.astype(np.float32)) - f(b.astype(np.float32))) / (2 * eps)
    return g


def _check_grad(fn, *args, rtol=2e-2, atol=2e-3):
    """Gradients of sum(fn(*args) * r) through the tape against finite differences."""
    r = RNG.standard_normal(np.shape(fn(*args).numpy())).astype(np.float32)
    vs = [tf.Variable(a) for a in args]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(fn(*vs) * r)
    grads = tape.gradient(loss, vs)
    for i, (a, g) in enumerate(zip(args, grads)):
        def f(v, i=i):
            parts = list(args)
            parts[i] = v
            return float(np.sum(fn(*parts).numpy().astype(np.float64) * r))

        np.testing.assert_allclose(g.numpy(), _numeric_grad(f, a), rtol=rtol, atol=atol)


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("stride", [1, 2])
def test_conv_and_pool_gradients(padding, stride):
    x, w = _f32(2, 5, 6, 3), _f32(3, 3, 3, 2)
    _check_grad(lambda a, b: tf.nn.conv2d(a, b, stride, padding), x, w)
    _check_grad(lambda a: tf.nn.max_pool2d(a, 2, stride, padding), x)
    _check_grad(lambda a: tf.nn.avg_pool2d(a, 3, stride, padding), x)


def test_other_gradients():
    x = _f32(4, 5)
    onehot = np.eye(5, dtype=np.float32)[[0, 3, 1, 4]]
    _check_grad(tf.nn.softmax, x)
    _check_grad(tf.nn.log_softmax, x)
    _check_grad(lambda a: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 3, 1, 4], logits=a), x)
    _check_grad(lambda a: tf.nn.softmax_cross_entropy_with_logits(labels=onehot, logits=a), x)
    _check_grad(lambda a: tf.nn.sigmoid_cross_entropy_with_logits(labels=onehot, logits=a), x)
    _check_grad(tf.nn.gelu, x)
    _check_grad(lambda a, b: tf.nn.bias_add(a, b), x, _f32(5))
    _check_grad(lambda a: tf.nn.batch_normalization(a, *tf.nn.moments(a, [0]), None, None, 1e-3), x)


def test_traced_matches_eager():
    x, w = _f32(2, 6, 6, 3), _f32(3, 3, 3, 4)

    def net(x, w):
        y = tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME"))
        y = tf.nn.max_pool2d(y, 2, 2, "VALID")
        return tf.nn.log_softmax(tf.reshape(y, [2, -1]))

    np.testing.assert_allclose(tf.function(net)(x, w).numpy(), net(x, w).numpy(), rtol=1e-5, atol=1e-6)


def test_every_op_has_a_gradient():
    no_grad = {"RandomUniformLike", "BiasAddGrad", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPoolGrad",
               "AvgPoolGrad", "MaxPoolGradGrad"}
    from autograph_cli.runtime import ops

    mine = [n for n, op in ops.REGISTRY.items() if getattr(op.infer, "__module__", None) == nn_ops.__name__]
    assert set(mine) - no_grad == set(nn_ops.GRADIENTS)


def test_gradients_inside_tf_function_match_eager():
    from autograph_cli.tf.keras._impl import models

    if not models._trace_train_step():
        pytest.skip("this runtime has no GradientTape inside tf.function yet")
    x, w = _f32(2, 6, 6, 3), _f32(3, 3, 3, 4)
    labels = np.array([1, 3])

    def grads(x, w):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME")), 2, 2, "VALID")
            y = tf.nn.avg_pool2d(y, 3, 1, "SAME")
            logits = tf.reshape(y, [2, -1])[:, :5]
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
            loss += tf.reduce_sum(tf.nn.log_softmax(logits)) * 0.01 + tf.reduce_sum(tf.nn.gelu(logits)) * 0.1
        return tape.gradient(loss, [x, w])

    xt, wt = tf.constant(x), tf.constant(w)
    for e, t in zip(grads(xt, wt), tf.function(grads)(xt, wt)):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)

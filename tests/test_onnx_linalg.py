"""Linear algebra and cumprod on three engines: the numpy runtime, onnxruntime
(the exported graph) and XLA through JAX (jit_compile=True) agree on the same
traced function; jit_compile's gradients equal the runtime's."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
pytest.importorskip("jax")

import autograph_cli.tf as tf  # noqa: E402
from autograph_cli.export import NotExportableError, to_onnx  # noqa: E402

RNG = np.random.default_rng(7)


def _spd(*shape):
    n = shape[-1]
    a = RNG.normal(size=shape).astype(np.float32)
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n, dtype=np.float32)).astype(np.float32)


def _general(*shape):
    n = shape[-1]
    return (RNG.normal(size=shape) + 2 * np.eye(n)).astype(np.float32)


def _flat(res):
    if isinstance(res, (tuple, list)):
        return [x for r in res for x in _flat(r)]
    return [np.asarray(res.numpy())]


def three_engines(fn, specs, *inputs, rtol=2e-4, atol=2e-5):
    """fn on the numpy runtime, onnxruntime and jit_compile: the same values."""
    model = to_onnx(tf.function(fn), args=specs)
    onnx.checker.check_model(model, full_check=True)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    staged = tf.function(fn, input_signature=specs)
    jitted = tf.function(fn, input_signature=specs, jit_compile=True)
    for vals in inputs:
        want = _flat(staged(*vals))
        got_onnx = sess.run(None, {i.name: v for i, v in zip(sess.get_inputs(), vals)})
        got_jax = _flat(jitted(*vals))
        for w, g, j in zip(want, got_onnx, got_jax):
            assert w.dtype == g.dtype == j.dtype and w.shape == g.shape == j.shape
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
            np.testing.assert_allclose(j, w, rtol=rtol, atol=atol)


def grads_agree(fn, *vals, rtol=2e-4, atol=2e-5):
    """d sum(fn(x)) / dx, staged and jit-compiled."""

    def loss(*xs):
        return tf.add_n([tf.reduce_sum(y) for y in tf.nest.flatten(fn(*xs))])

    def g(*xs):
        with tf.GradientTape() as t:
            t.watch(xs)
            y = loss(*xs)
        return t.gradient(y, xs)

    want = tf.function(g)(*vals)
    got = tf.function(g, jit_compile=True)(*vals)
    for w, j in zip(want, got):
        assert np.all(np.isfinite(w.numpy()))
        np.testing.assert_allclose(j.numpy(), w.numpy(), rtol=rtol, atol=atol)


M3 = tf.TensorSpec([3, 3], tf.float32)
B4 = tf.TensorSpec([None, 4, 4], tf.float32)


def test_inverse_single_and_batched():
    three_engines(tf.linalg.inv, [M3], [_general(3, 3)], [np.array([[0, 1, 0], [1, 0, 0], [0, 0, 2]], np.float32)])
    three_engines(tf.linalg.inv, [B4], [_general(5, 4, 4)], [_general(1, 4, 4)])
    three_engines(lambda a: tf.linalg.inv(a, adjoint=True), [M3], [_general(3, 3)])
    three_engines(tf.linalg.inv, [tf.TensorSpec([1, 1], tf.float32)], [np.array([[4.0]], np.float32)])
    three_engines(tf.linalg.inv, [tf.TensorSpec([2, 2], tf.float64)], [_general(2, 2).astype(np.float64)],
                  rtol=1e-10, atol=1e-12)
    grads_agree(tf.linalg.inv, tf.constant(_general(3, 3)))


def test_solve_with_batches_and_adjoint():
    rhs = tf.TensorSpec([None, 4, 2], tf.float32)
    three_engines(tf.linalg.solve, [B4, rhs], [_general(3, 4, 4), RNG.normal(size=(3, 4, 2)).astype(np.float32)])
    three_engines(lambda a, b: tf.linalg.solve(a, b, adjoint=True), [M3, tf.TensorSpec([3, 1], tf.float32)],
                  [_general(3, 3), np.array([[1.0], [-2.0], [0.5]], np.float32)])
    grads_agree(tf.linalg.solve, tf.constant(_general(3, 3)), tf.constant(RNG.normal(size=(3, 2)).astype(np.float32)))


def test_cholesky_reads_the_lower_triangle():
    three_engines(tf.linalg.cholesky, [B4], [_spd(2, 4, 4)])
    a = _spd(3, 3)
    a[0, 2] = 99.0  # the upper triangle is not read
    three_engines(tf.linalg.cholesky, [M3], [a])
    three_engines(tf.linalg.cholesky, [tf.TensorSpec([1, 1], tf.float32)], [np.array([[9.0]], np.float32)])
    grads_agree(tf.linalg.cholesky, tf.constant(_spd(3, 3)))


def test_slogdet_and_det():
    def f(a):
        sign, logabs = tf.linalg.slogdet(a)
        return sign, logabs, tf.linalg.det(a)

    neg = _general(3, 3)
    neg[[0, 1]] = neg[[1, 0]]  # a row swap: the sign flips
    three_engines(f, [M3], [_general(3, 3)], [neg], [np.zeros((3, 3), np.float32) + np.eye(3, dtype=np.float32) * 0.5])
    three_engines(f, [B4], [_general(4, 4, 4)])
    grads_agree(lambda a: tf.linalg.slogdet(a)[1], tf.constant(_spd(3, 3)))


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumprod_zeros_negatives_axes(exclusive, reverse):
    x = np.array([[2, -3, 0, 4], [-1, -1, 5, 0.5], [1, 2, 3, 4]], np.float32)

    def f(a, i):
        return (tf.math.cumprod(a, axis=0, exclusive=exclusive, reverse=reverse),
                tf.math.cumprod(a, axis=-1, exclusive=exclusive, reverse=reverse),
                tf.math.cumprod(i, exclusive=exclusive, reverse=reverse))

    three_engines(f, [tf.TensorSpec([None, None], tf.float32), tf.TensorSpec([None], tf.int32)],
                  [x, np.array([3, -2, 0, 7], np.int32)], [x[:1, :2], np.array([5], np.int32)],
                  [np.zeros((0, 3), np.float32), np.zeros((0,), np.int32)])
    nonzero = np.where(x == 0, 1.5, x)  # (TensorFlow's gradient divides by x, as the runtime's does)
    grads_agree(lambda a: tf.math.cumprod(a, axis=1, exclusive=exclusive, reverse=reverse), tf.constant(nonzero))


def test_unknown_matrix_size_is_refused_with_the_users_line():
    def f(a):
        return tf.linalg.inv(a)

    with pytest.raises(NotExportableError, match=r"test_onnx_linalg\.py:\d+: MatrixInverse of a matrix whose size"):
        to_onnx(tf.function(f), args=[tf.TensorSpec([None, None], tf.float32)])


def test_fixed_size_tensor_array_with_a_none_element_dimension():
    # written out of order: each write replaces its element (was appended: a short stack)
    def f(x):
        n = tf.shape(x)[0]
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            ta = ta.write(n - 1 - i, x[i] * 2.0)
        tb = tf.TensorArray(tf.float32, size=3)
        for j in (2, 0, 1):
            tb = tb.write(j, x[0] + float(j))
        return ta.stack(), tb.stack(), ta.read(0), ta.size()

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    three_engines(f, [tf.TensorSpec([None, None], tf.float32)], [x], [x[:1, :2]])


def test_bincount_of_a_negative_value_fails_in_onnxruntime_as_in_the_runtime():
    f = tf.function(lambda a: tf.math.bincount(a))
    model = to_onnx(f, args=[tf.TensorSpec([None], tf.int32)])
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feed = lambda a: {sess.get_inputs()[0].name: np.array(a, np.int32)}  # noqa: E731
    np.testing.assert_array_equal(sess.run(None, feed([1, 1, 3]))[0], f(tf.constant([1, 1, 3])).numpy())
    assert sess.run(None, feed([]))[0].shape == (0,)
    with pytest.raises(tf.errors.InvalidArgumentError, match="non-negative"):
        f(tf.constant([1, -1, 3]))
    with pytest.raises(Exception, match="bincount__Input_arr_must_be_non_negative"):
        sess.run(None, feed([1, -1, 3]))


@pytest.mark.parametrize("axis,batch_dims", [(1, 1), (2, 1), (3, 1), (2, 2), (-1, 1)])
def test_gather_with_batch_dims(axis, batch_dims):
    params = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    if batch_dims == 1:
        idx = np.array([[0, 2, 1], [1, 1, 0]], np.int32)
    else:
        idx = np.array([[[0], [2], [1]], [[1], [0], [0]]], np.int64)
    specs = [tf.TensorSpec([None, 3, 4, 5], tf.float32), tf.TensorSpec([None] + list(idx.shape[1:]), tf.as_dtype(idx.dtype))]
    three_engines(lambda p, i: tf.gather(p, i, axis=axis, batch_dims=batch_dims), specs, [params, idx])
    grads_agree(lambda p: tf.gather(p, tf.constant(idx), axis=axis, batch_dims=batch_dims), tf.constant(params))


def _symmetric_lower(*shape, dtype=np.float32):
    """A matrix whose upper triangle is noise: eigh reads the lower one only (LAPACK's UPLO="L")."""
    a = RNG.normal(size=shape).astype(dtype)
    return (a + RNG.normal(size=shape).astype(dtype) * np.triu(np.ones(shape[-2:]), 1)).astype(dtype)


def test_eigh_exports_by_jacobi_rotations_and_agrees_on_three_engines():
    # eigenvalues (ascending) the same on the runtime, onnxruntime and XLA
    three_engines(tf.linalg.eigvalsh, [tf.TensorSpec([4, 4])], (_symmetric_lower(4, 4),), (np.eye(4, dtype=np.float32),))
    three_engines(tf.linalg.eigvalsh, [tf.TensorSpec([None, 6, 6])], (_symmetric_lower(3, 6, 6),), (_symmetric_lower(1, 6, 6),))
    three_engines(lambda x: tf.linalg.eigh(x)[0] * 2.0, [tf.TensorSpec([2, 3, 3], tf.float64)],
                  (_symmetric_lower(2, 3, 3, dtype=np.float64),), rtol=1e-10, atol=1e-12)
    # eigenvectors: each column is determined up to its sign (and within a
    # repeated eigenvalue's space only as a basis): a v = v w, v orthonormal,
    # and |v' v_runtime| = I where the eigenvalues are distinct
    for n, batch in ((1, ()), (5, ()), (4, (2,)), (8, ())):
        spec = tf.TensorSpec(batch + (n, n))
        sess = ort.InferenceSession(to_onnx(tf.function(tf.linalg.eigh), args=[spec]).SerializeToString(),
                                    providers=["CPUExecutionProvider"])
        for a in (_symmetric_lower(*batch, n, n), np.broadcast_to(np.eye(n, dtype=np.float32) * 2, batch + (n, n))):
            a = np.ascontiguousarray(a)
            w, v = sess.run(None, {sess.get_inputs()[0].name: a})
            we, ve = (t.numpy() for t in tf.linalg.eigh(tf.constant(a)))
            sym = np.tril(a) + np.swapaxes(np.tril(a, -1), -1, -2)
            np.testing.assert_allclose(w, we, atol=1e-5 * max(1, np.abs(we).max()))
            np.testing.assert_allclose(sym @ v, v * w[..., None, :], atol=2e-5 * max(1, np.abs(we).max()))
            np.testing.assert_allclose(np.swapaxes(v, -1, -2) @ v, np.broadcast_to(np.eye(n), v.shape), atol=2e-6)
            if np.all(np.diff(we, axis=-1) > 1e-3):
                np.testing.assert_allclose(np.abs(np.swapaxes(v, -1, -2) @ ve), np.broadcast_to(np.eye(n), v.shape),
                                           atol=2e-5)

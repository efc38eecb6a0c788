"""JAX (jit_compile) and ONNX lowerings of TensorStridedSliceUpdate (sliced
variable assignment), Bincount and Multinomial (tf.random.categorical):
each engine against the numpy runtime and an independent numpy reference;
Multinomial draws from onnxruntime's generator (frequencies compared) and
stays refused by jit_compile (it draws from the runtime's stateful
generator), with the user's line."""
from __future__ import annotations

import inspect
import os

import numpy as np
import pytest

import autograph_cli.tf as tf

jax = pytest.importorskip("jax")
onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from autograph_cli.export import NotExportableError, to_onnx  # noqa: E402

HERE = os.path.abspath(__file__)


def _ort(model, *vals):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    return sess.run(None, dict(zip(names, [np.asarray(v) for v in vals])))


def _np_assign(a, key, value):
    a = a.copy()
    a[key] = value
    return a


# -------------------------------------------------------- sliced assignment
UPDATE_CASES = [
    ((1,), np.full(4, 7.0, np.float32)),
    ((slice(1, 3),), np.ones((2, 4), np.float32)),
    ((0, slice(None, None, 2)), np.array([-1.0, -2.0], np.float32)),
    ((slice(None), slice(3, 0, -2)), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)),
    ((Ellipsis, 1), np.array([5.0, 6.0, 7.0], np.float32)),
    ((-1, slice(1, None)), np.array([8.0, 9.0, 10.0], np.float32)),
]


@pytest.mark.parametrize("key,value", UPDATE_CASES)
def test_sliced_assign_jit_and_onnx_match_numpy(key, value):
    init = np.arange(12, dtype=np.float32).reshape(3, 4)
    want = _np_assign(init, key, value)

    def make():
        v = tf.Variable(init)

        def f(x):
            v[key].assign(x)
            return v.read_value() * 1.0

        return v, f

    for jit in (False, True):
        v, f = make()
        got = tf.function(f, jit_compile=jit)(tf.constant(value))
        np.testing.assert_array_equal(got.numpy(), want)
        np.testing.assert_array_equal(v.numpy(), want)

    _, f = make()
    model = to_onnx(tf.function(f), args=(tf.TensorSpec(np.shape(value), tf.float32),))
    onnx.checker.check_model(model, full_check=True)
    np.testing.assert_array_equal(_ort(model, value)[0], want)


def test_sliced_assign_at_traced_positions_jit_and_onnx():
    init = np.arange(24, dtype=np.int32).reshape(2, 3, 4)

    def make():
        v = tf.Variable(init)

        def f(i, j, x):
            v[i, :, j].assign(x)  # integer positions known only at run time
            return tf.identity(v.read_value())

        return f

    cases = [(0, 1, np.array([-1, -2, -3], np.int32)), (1, -1, np.array([7, 8, 9], np.int32)),
             (-2, 3, np.array([0, 0, 0], np.int32))]
    for jit in (False, True):
        f = tf.function(make(), jit_compile=jit)
        want = init
        for i, j, x in cases:  # the variable keeps each update
            want = _np_assign(want, (i, slice(None), j), x)
            got = f(tf.constant(i), tf.constant(j), tf.constant(x))
            np.testing.assert_array_equal(got.numpy(), want)
    model = to_onnx(tf.function(make()), args=(tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32),
                                               tf.TensorSpec([3], tf.int32)))
    for i, j, x in cases:  # the exported model starts from the initial value each run
        np.testing.assert_array_equal(_ort(model, np.int32(i), np.int32(j), x)[0],
                                      _np_assign(init, (i, slice(None), j), x))


# ------------------------------------------------------------------ bincount
def _np_bincount(a, w=None, minlength=None, maxlength=None, binary=False, dtype=np.int32):
    a = np.asarray(a).ravel()
    n = int(a.max()) + 1 if a.size else 0
    n = max(n, minlength or 0)
    n = n if maxlength is None else min(n, maxlength)
    out = np.zeros(n, np.float64)
    for k, v in enumerate(a):
        if v < n:
            out[v] += 1 if w is None else np.asarray(w).ravel()[k]
    if binary:
        out = out > 0
    return out.astype(dtype if w is None else np.asarray(w).dtype)


ARR = np.array([[1, 4, 1], [0, 7, 4]], np.int32)
W = np.array([[0.5, 1.0, 2.0], [3.0, -1.0, 0.25]], np.float32)


@pytest.mark.parametrize("kw", [{}, {"minlength": 10}, {"maxlength": 3}, {"minlength": 2, "maxlength": 5},
                                {"binary_output": True}, {"dtype": tf.float32}, {"weights": True}])
def test_bincount_onnx_matches_numpy(kw):
    kw = dict(kw)
    w = W if kw.pop("weights", False) else None

    @tf.function
    def f(a, *ws):
        return tf.math.bincount(a, weights=ws[0] if ws else None, **kw)

    ref = _np_bincount(ARR, w, kw.get("minlength"), kw.get("maxlength"), kw.get("binary_output", False),
                       kw["dtype"].as_numpy_dtype if "dtype" in kw else np.int32)
    args = (ARR,) if w is None else (ARR, w)
    specs = [tf.TensorSpec([None, 3], tf.int32)] + ([tf.TensorSpec([None, 3], tf.float32)] if w is not None else [])
    np.testing.assert_allclose(f(*args).numpy(), ref)
    model = to_onnx(f, args=tuple(specs))
    onnx.checker.check_model(model, full_check=True)
    got = _ort(model, *args)[0]
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got, ref)
    empty = _ort(model, *[np.zeros((0, 3), a.dtype) for a in args])[0]
    np.testing.assert_array_equal(empty, _np_bincount(np.zeros(0, np.int32), None if w is None else np.zeros(0),
                                                      kw.get("minlength"), kw.get("maxlength")))


def test_bincount_jit_with_a_fixed_length_and_refused_otherwise():
    def fixed(a, w):
        return tf.math.bincount(a, minlength=6, maxlength=6), tf.math.bincount(a, w, minlength=6, maxlength=6), \
            tf.math.bincount(a, minlength=6, maxlength=6, binary_output=True)

    want = tf.function(fixed)(ARR, W)
    got = tf.function(fixed, jit_compile=True)(ARR, W)
    for g, w_, ref in zip(got, want, (_np_bincount(ARR, None, 6, 6), _np_bincount(ARR, W, 6, 6),
                                      _np_bincount(ARR, None, 6, 6, True))):
        assert g.dtype == w_.dtype
        np.testing.assert_allclose(g.numpy(), w_.numpy())
        np.testing.assert_allclose(g.numpy(), ref)

    def dynamic(a):
        return tf.math.bincount(a)  # its length is max(a) + 1

    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.function(dynamic, jit_compile=True)(ARR)
    msg = str(e.value)
    assert "Bincount" in msg and "depends on the data" in msg
    line = inspect.getsourcelines(dynamic)[1] + 1
    assert f"{HERE}:{line}" in msg and "Traceback" not in msg


# --------------------------------------------------------------- categorical
def test_categorical_onnx_draws_from_the_same_distribution():
    logits = np.log(np.array([[0.2, 0.5, 0.3], [0.9, 0.05, 0.05]], np.float32))

    @tf.function
    def f(lg):
        return tf.random.categorical(lg, 4000), tf.random.categorical(lg, 7, dtype=tf.int32)

    model = to_onnx(f, args=(tf.TensorSpec([None, 3], tf.float32),))
    onnx.checker.check_model(model, full_check=True)
    many, few = _ort(model, logits)
    assert many.dtype == np.int64 and many.shape == (2, 4000)
    assert few.dtype == np.int32 and few.shape == (2, 7)
    probs = np.exp(logits)
    for row in range(2):
        np.testing.assert_allclose(np.bincount(many[row], minlength=3) / 4000, probs[row], atol=0.035)
    runtime = f(tf.constant(logits))[0].numpy()  # the runtime's draws: the same distribution
    for row in range(2):
        np.testing.assert_allclose(np.bincount(runtime[row], minlength=3) / 4000, probs[row], atol=0.035)


def test_categorical_with_traced_num_samples_is_not_exportable_and_jit_refuses_it():
    @tf.function
    def f(lg, n):
        return tf.random.categorical(lg, n)

    with pytest.raises(NotExportableError, match="num_samples"):
        to_onnx(f, args=(tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([], tf.int32)))

    def g(lg):
        return tf.random.categorical(lg, 5)

    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.function(g, jit_compile=True)(tf.zeros([1, 3]))
    msg = str(e.value)
    assert "Multinomial" in msg and "stateful random generator" in msg
    assert f"{HERE}:{inspect.getsourcelines(g)[1] + 1}" in msg

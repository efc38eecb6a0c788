"""ONNX export: onnxruntime's outputs equal this runtime's, for seed-style
programs with staged control flow, TensorArrays and Variables, and for
random integer programs with nested staged if/while/for and
break/continue/return. Every model passes onnx.checker (full_check)."""
from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

import autograph_cli.tf as tf  # noqa: E402
from autograph_cli.export import NotExportableError, exportable_ops, not_exportable_ops, to_onnx  # noqa: E402


def _session(model):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def ort_run(model, *vals):
    s = _session(model)
    feeds = {i.name: np.asarray(v) for i, v in zip(s.get_inputs(), vals)}
    return s.run(None, feeds)


def flat_outputs(res):
    if isinstance(res, (tuple, list)):
        out = []
        for r in res:
            out += flat_outputs(r)
        return out
    if isinstance(res, dict):
        return flat_outputs([res[k] for k in sorted(res)])
    return [np.asarray(res.numpy() if hasattr(res, "numpy") else res)]


def check(fn, specs, inputs, rtol=1e-5, atol=1e-6):
    model = to_onnx(fn, args=specs)
    onnx.checker.check_model(model, full_check=True)
    for vals in inputs:
        want = flat_outputs(fn(*[tf.constant(v) for v in vals]))
        got = ort_run(model, *vals)
        assert len(got) >= len(want)
        for w, g in zip(want, got):
            assert w.dtype == g.dtype, (w.dtype, g.dtype)
            assert w.shape == g.shape, (w.shape, g.shape)
            if w.dtype.kind in "fc":
                np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
            else:
                np.testing.assert_array_equal(g, w)
    return model


I32 = tf.TensorSpec([], tf.int32)


# ------------------------------------------------------------- seed programs
def test_collatz():
    @tf.function
    def collatz(n):
        steps = 0
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    check(collatz, (I32,), [(np.int32(v),) for v in (1, 2, 6, 27, 97)])


def test_fizzbuzz_counting_loop():
    @tf.function
    def fizzbuzz(n):
        fizz = 0
        buzz = 0
        both = 0
        other = 0
        for i in tf.range(1, n + 1):
            if i % 15 == 0:
                both += 1
            elif i % 3 == 0:
                fizz += 1
            elif i % 5 == 0:
                buzz += 1
            else:
                other += i
        return fizz, buzz, both, other

    check(fizzbuzz, (I32,), [(np.int32(v),) for v in (0, 1, 15, 100)])


def test_tanh_loop():
    @tf.function
    def tanh_loop(x):
        for i in tf.range(25):
            x = tf.tanh(x)
        return x

    rng = np.random.default_rng(0)
    check(tanh_loop, (tf.TensorSpec([None, 3], tf.float32),),
          [(rng.standard_normal((n, 3)).astype(np.float32),) for n in (1, 4)])


def test_while_on_tensor_sum():
    @tf.function
    def f(x):
        total = tf.constant(0.0)
        i = 0
        while total < 10.0 and i < 100:
            total += tf.reduce_sum(x)
            i += 1
        return total, i

    check(f, (tf.TensorSpec([None], tf.float32),), [(np.array([0.5, 1.0], np.float32),), (np.array([3.0], np.float32),)])


def test_dynamic_rnn_tensor_array():
    @tf.function
    def dynamic_rnn(input_data, initial_state, w):
        input_data = tf.transpose(input_data, [1, 0, 2])
        outputs = tf.TensorArray(tf.float32, input_data.shape[0])
        state = initial_state
        for i in tf.range(input_data.shape[0]):
            state = tf.tanh(tf.matmul(tf.concat([input_data[i], state], axis=1), w))
            outputs = outputs.write(i, state)
        return tf.transpose(outputs.stack(), [1, 0, 2]), state

    rng = np.random.default_rng(1)
    specs = (tf.TensorSpec([4, 5, 3], tf.float32), tf.TensorSpec([4, 2], tf.float32), tf.TensorSpec([5, 2], tf.float32))
    vals = (rng.standard_normal((4, 5, 3)).astype(np.float32), np.zeros((4, 2), np.float32),
            rng.standard_normal((5, 2)).astype(np.float32))
    check(dynamic_rnn, specs, [vals])


def test_tensor_array_dynamic_accumulation():
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, i * i)
        return ta.stack(), ta.size()

    check(squares, (I32,), [(np.int32(v),) for v in (1, 5, 9)])


def test_early_return_from_range_loop():
    @tf.function
    def first_multiple(n, k):
        for i in tf.range(1, n):
            if i % k == 0:
                return i
        return -1

    check(first_multiple, (I32, I32), [(np.int32(10), np.int32(3)), (np.int32(10), np.int32(11)), (np.int32(2), np.int32(1))])


def test_break_continue():
    @tf.function
    def f(n):
        s = 0
        i = 0
        while i < n:
            i += 1
            if i % 3 == 0:
                continue
            if s > 40:
                break
            s += i
        return s, i

    check(f, (I32,), [(np.int32(v),) for v in (0, 5, 30)])


def test_for_over_tensor_rows():
    @tf.function
    def f(m):
        acc = tf.zeros([3])
        for row in m:
            if tf.reduce_max(row) > 0.5:
                acc += row
            else:
                acc -= row * 2.0
        return acc

    rng = np.random.default_rng(2)
    check(f, (tf.TensorSpec([None, 3], tf.float32),), [(rng.random((5, 3), np.float32),), (np.zeros((0, 3), np.float32),)])


def test_straight_line_ops():
    @tf.function
    def f(x, y):
        a = tf.reshape(x, [2, -1])
        b = tf.concat([a, a * 2.0], axis=0)
        c = tf.stack([tf.reduce_sum(b, axis=1), tf.reduce_max(b, axis=1)])
        d = tf.matmul(b, tf.transpose(b))
        e = tf.where(d > 1.0, d, tf.zeros_like(d))
        g = tf.gather(x, y)
        s = x[1:4], x[::-1], x[-1], a[:, 1]
        z = tf.cast(tf.argmax(x), tf.float32) + tf.reduce_mean(x) + tf.exp(-tf.abs(x[0]))
        r = tf.range(0, tf.size(x)) * 2
        f2 = tf.fill([2, 2], 3.5)
        return c, e, g, s, z, r, f2, tf.sqrt(tf.abs(x)), tf.math.floormod(x, 0.7), x // 0.3

    x = np.linspace(-1.5, 2.0, 6).astype(np.float32)
    check(f, (tf.TensorSpec([6], tf.float32), tf.TensorSpec([None], tf.int32)), [(x, np.array([0, 5, 2], np.int32))])


def test_integer_floordiv_mod_negative():
    @tf.function
    def f(a, b):
        return a // b, a % b, tf.reduce_mean(tf.stack([a, b]))

    check(f, (I32, I32), [(np.int32(a), np.int32(b)) for a, b in ((7, 2), (-7, 2), (7, -3), (-8, -3))])


def test_variables_read_and_assign():
    v = tf.Variable(1.0)
    count = tf.Variable(0)

    @tf.function
    def f(x):
        for i in tf.range(3):
            v.assign(v * x)
            count.assign_add(1)
        if x > 2.0:
            v.assign_add(100.0)
        return v.read_value() + 1.0

    model = to_onnx(f, args=(tf.TensorSpec([], tf.float32),))
    names = [o.name for o in model.graph.output]
    assert len(names) == 3 and names[1].endswith(":new") and names[2].endswith(":new")
    v0, c0 = v.numpy(), count.numpy()
    got = ort_run(model, np.float32(3.0))
    want = f(tf.constant(3.0)).numpy()
    np.testing.assert_allclose(got[0], want, rtol=1e-6)
    np.testing.assert_allclose(got[1], v.numpy(), rtol=1e-6)  # the variable's new value
    assert got[2] == count.numpy() == c0 + 3
    assert v0 == 1.0


def test_variable_read_only_is_initializer():
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))

    @tf.function
    def f(x):
        return tf.matmul(x, w)

    model = check(f, (tf.TensorSpec([None, 2], tf.float32),), [(np.ones((4, 2), np.float32),)])
    assert len(model.graph.output) == 1
    assert any(i.name.startswith("var_") for i in model.graph.initializer)


def test_symbolic_dims():
    @tf.function
    def f(x):
        return x * 2

    model = to_onnx(f, args=(tf.TensorSpec([None, 3], tf.float32),))
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param and dims[1].dim_value == 3


# ------------------------------------------------------------- not exportable
def test_not_exportable_op_names_op_and_line():
    ds = tf.data.Dataset.range(5)

    @tf.function
    def f(x):
        return ds.reduce(x, lambda a, b: a + b)

    with pytest.raises(NotExportableError) as e:
        to_onnx(f, args=(tf.TensorSpec([], tf.int64),))
    msg = str(e.value)
    assert "\n" not in msg
    assert "ReduceDataset" in msg or "dataset" in msg
    assert "test_onnx_export.py:" in msg


def test_not_exportable_list():
    missing = not_exportable_ops()
    assert "ReduceDataset" in missing and "EagerPyFunc" in missing
    assert "EagerPyFunc" not in exportable_ops()
    assert "While" not in missing and "MatMul" not in missing


def test_cli_export(tmp_path):
    src = tmp_path / "prog.py"
    src.write_text(
        "import autograph_cli.tf as tf\n\n"
        "@tf.function\n"
        "def collatz(n):\n"
        "    steps = 0\n"
        "    while n > 1:\n"
        "        n = n // 2 if n % 2 == 0 else 3 * n + 1\n"
        "        steps += 1\n"
        "    return steps\n\n"
        "@tf.function\n"
        "def bad(x):\n"
        "    return tf.py_function(lambda a: a, [x], tf.int32)\n"
    )
    out = tmp_path / "m.onnx"
    cmd = [sys.executable, "-m", "autograph_cli", "export", f"{src}::collatz", "--arg", "int32[]", "-o", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = ort_run(onnx.load(str(out)), np.int32(27))
    assert int(got[0]) == 111
    r = subprocess.run(cmd[:4] + [f"{src}::bad", "--arg", "int32[]", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "prog.py:13" in r.stderr, r.stderr
    r = subprocess.run(cmd[:4] + [f"{src}::nope", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 2
    r = subprocess.run([sys.executable, "-m", "autograph_cli", "export", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "onnx" in r.stdout.lower()


# ------------------------------------------------------------- random programs
N_RANDOM = 150
RANDOM_INPUTS = [(3, 5), (-4, 11), (0, 0), (17, -2), (9, 9)]


def test_random_programs_differential(tmp_path):
    import converters
    from _differential import exec_converted
    from test_staged_random_programs import Gen, _load

    rng = random.Random(11)
    sources = [Gen(rng).program(f"prog_{k}") for k in range(N_RANDOM)]
    text = "\n\n".join(sources)
    path = tmp_path / "_onnx_random.py"
    path.write_text(text)
    result = converters.convert(text, filename=str(path), fast_path=True)
    conv = exec_converted(result, "_onnx_random_conv", str(path))
    _ = _load
    exported = compared = 0
    failures = []
    for k in range(N_RANDOM):
        fn = tf.function(getattr(conv, f"prog_{k}"))
        try:
            cf = fn.get_concrete_function(I32, I32)
        except Exception:  # noqa: BLE001 - a program TensorFlow also rejects
            continue
        try:
            model = to_onnx(cf)
        except Exception as e:  # noqa: BLE001
            failures.append((sources[k], f"export: {type(e).__name__}: {e}"))
            continue
        exported += 1
        sess = _session(model)
        for a, b in RANDOM_INPUTS:
            try:
                want = [int(np.asarray(w)) for w in flat_outputs(cf(tf.constant(a), tf.constant(b)))]
            except Exception:  # noqa: BLE001 - raises in the runtime too
                continue
            names = [i.name for i in sess.get_inputs()]
            got = [int(g) for g in sess.run(None, dict(zip(names, (np.array(a, np.int32), np.array(b, np.int32)))))]
            compared += 1
            if got[: len(want)] != want:
                failures.append((sources[k], f"input {(a, b)}: onnxruntime {got} != runtime {want}"))
    print(f"random programs: {exported} exported, {compared} inputs compared")
    assert not failures, "\n\n".join(f"{s}\n-> {m}" for s, m in failures[:3])
    assert exported >= N_RANDOM * 0.8 and compared >= exported * 3


# ------------------------------------------------------------- the samples
def _sample(name):
    import importlib.util
    import os

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "samples", f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"_onnx_sample_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


F32 = tf.TensorSpec([None], tf.float32)
SAMPLES = [
    ("collatz", "collatz", (I32,), [(np.int32(27),), (np.int32(1),)]),
    ("tanh_loop", "f", (F32,), [(np.array([0.9, 0.8, 0.7, 0.6, 0.5], np.float32),), (np.array([0.1], np.float32),)]),
    ("early_return", "first_above", (tf.TensorSpec([None], tf.int32), I32),
     [(np.array([1, 5, 2, 8], np.int32), np.int32(4)), (np.array([1, 2], np.int32), np.int32(4))]),
    ("early_return", "sign", (I32,), [(np.int32(-3),), (np.int32(0),), (np.int32(5),)]),
    ("break_continue", "while_tf_true_tf_break", (I32,), [(np.int32(5),), (np.int32(0),)]),
    ("break_continue", "count_positive_until", (tf.TensorSpec([None], tf.int32), I32),
     [(np.array([1, -2, 3, 4, 9, 5], np.int32), np.int32(9)), (np.array([3], np.int32), np.int32(0))]),
    ("sum_even", "sum_even", (tf.TensorSpec([None], tf.int32),), [(np.arange(10, dtype=np.int32),)]),
    ("list_accumulation", "squares_of_even", (I32,), [(np.int32(9),), (np.int32(1),)]),
    ("simple_relu", "simple_relu", (I32,), [(np.int32(-2),), (np.int32(3),)]),
]


@pytest.mark.parametrize("module,func,specs,inputs", SAMPLES, ids=[f"{m}.{f}" for m, f, _, _ in SAMPLES])
def test_samples(module, func, specs, inputs, capsys):
    fn = tf.function(getattr(_sample(module), func))
    check(fn, specs, inputs)


def test_sample_dynamic_rnn():
    mod = _sample("dynamic_rnn")
    fn = tf.function(mod.dynamic_rnn)
    rng = np.random.default_rng(3)
    x = rng.random((2, 3, 4), np.float32)
    s0 = np.zeros((2, 4), np.float32)
    cf = fn.get_concrete_function(mod.rnn_step, tf.TensorSpec([2, 3, 4], tf.float32), tf.TensorSpec([2, 4], tf.float32))
    got = ort_run(to_onnx(cf), x, s0)
    np.testing.assert_allclose(got[0], cf(tf.constant(x), tf.constant(s0)).numpy(), rtol=1e-6)


def test_more_straight_line_ops():
    @tf.function
    def f(x, i):
        a = tf.pad(x, [[1, 2], [0, 1]], constant_values=-1.0)
        b = tf.pad(x, [[1, 1], [1, 1]], mode="REFLECT")
        p, q = tf.split(x, 2, axis=1)
        r = tf.split(x, [1, -1], axis=1)
        v, k = tf.math.top_k(x[0], 2)
        s = tf.sort(x, axis=-1, direction="DESCENDING"), tf.argsort(x[1])
        c = tf.math.cumsum(x, axis=1, exclusive=True, reverse=True)
        g = tf.gather_nd(x, [[0, 1], [1, 0]])
        sc = tf.scatter_nd([[1], [1], [3]], [1.0, 2.0, 3.0], [5])
        ts = tf.tensor_scatter_nd_add(x, [[0, 0]], [10.0]), tf.tensor_scatter_nd_update(x, [[1, 2]], [7.0])
        oh = tf.one_hot(i, 4)
        at = tf.math.atan2(x, x[::-1] - 0.5)
        return a, b, p, q, r, v, k, s, c, g, sc, ts, oh, at

    x = np.array([[0.5, -1.0, 2.0, 0.0], [3.0, 1.5, -2.5, 1.0]], np.float32)
    check(f, (tf.TensorSpec([2, 4], tf.float32), tf.TensorSpec([None], tf.int32)),
          [(x, np.array([0, 3, -1, 5, 2], np.int32))], rtol=1e-5, atol=1e-5)


def test_cli_export_saved_model(tmp_path):
    saved_model = pytest.importorskip("autograph_cli.saved_model")
    if not hasattr(saved_model, "save"):
        pytest.skip("saved models not available")
    src = tmp_path / "mk.py"
    src.write_text(
        "import sys\n"
        "import autograph_cli.tf as tf\n"
        "from autograph_cli import saved_model\n\n"
        "class M(tf.Module):\n"
        "    def __init__(self):\n"
        "        self.v = tf.Variable(2.0)\n"
        "        self.n = tf.Variable(0, name='steps')\n\n"
        "    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])\n"
        "    def __call__(self, x):\n"
        "        while tf.reduce_sum(x) < 100.0:\n"
        "            x = x * self.v\n"
        "            self.n.assign_add(1)\n"
        "        return x\n\n"
        "saved_model.save(M(), sys.argv[1])\n"
    )
    d = tmp_path / "sm"
    r = subprocess.run([sys.executable, str(src), str(d)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = tmp_path / "m.onnx"
    r = subprocess.run([sys.executable, "-m", "autograph_cli", "export", str(d), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    model = onnx.load(str(out))
    assert [o.name for o in model.graph.output] == ["output_0", "steps:new"]
    got = ort_run(model, np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(got[0], [64.0, 128.0])
    assert int(got[1]) == 6
    r = subprocess.run([sys.executable, "-m", "autograph_cli", "export", str(d), "--signature", "nope", "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "serving_default" in r.stderr


def test_nested_loops_growing_tensor_and_unstack():
    @tf.function
    def f(x, n):
        out = tf.zeros([0], tf.int32)
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True).unstack(x)
        total = 0
        for i in tf.range(ta.size()):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(out, tf.TensorShape([None]))])
            j = 0
            while j < ta.read(i):
                total += j
                j += 1
                if total > n:
                    break
            out = tf.concat([out, [total]], 0)
        return out, total

    check(f, (tf.TensorSpec([None], tf.int32), I32),
          [(np.array([3, 0, 5, 2], np.int32), np.int32(100)), (np.array([4, 4], np.int32), np.int32(5)),
           (np.zeros([0], np.int32), np.int32(1))])


def test_for_over_zip_and_python_list_state():
    @tf.function
    def f(a, b):
        acc = []
        s = 0.0
        for x, y in zip(a, b):
            if x > y:
                acc.append(x - y)
            s += x * y
        return tf.stack(acc) if False else s

    check(f, (tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)),
          [(np.array([1.0, 5.0, 2.0], np.float32), np.array([2.0, 1.0, 0.5], np.float32))])


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_conv_pool(padding):
    rng = np.random.default_rng(4)
    w = tf.constant(rng.standard_normal((3, 3, 2, 4)).astype(np.float32))

    @tf.function
    def f(x):
        y = tf.nn.conv2d(x, w, strides=1, padding=padding)
        y2 = tf.nn.conv2d(x, w, strides=2, padding=padding)
        y3 = tf.nn.conv2d(x, w, strides=1, padding=padding, dilations=2)
        m = tf.nn.max_pool2d(tf.nn.relu(y), 2, 2, padding)
        a = tf.nn.avg_pool2d(y, 3, 2, padding)
        return y, y2, y3, m, a

    check(f, (tf.TensorSpec([None, 7, 6, 2], tf.float32),), [(rng.standard_normal((2, 7, 6, 2)).astype(np.float32),)],
          rtol=1e-4, atol=1e-5)


def test_keras_mlp_forward():
    rng = np.random.default_rng(5)
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dense(3, activation="softmax")])

    @tf.function
    def f(x):
        return model(x)

    check(f, (tf.TensorSpec([None, 4], tf.float32),), [(rng.standard_normal((5, 4)).astype(np.float32),)], rtol=1e-5)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_elementwise_reduction_and_shape_ops():
    @tf.function
    def f(x, k):
        m = tf.math
        u = [tf.tanh(x), tf.exp(x), m.log(tf.abs(x) + 1.0), tf.sqrt(tf.abs(x)), m.rsqrt(tf.abs(x) + 1.0), tf.sin(x),
             tf.cos(x), m.tan(x * 0.3), m.asin(x * 0.3), m.acos(x * 0.3), m.atan(x), m.sinh(x), m.cosh(x), tf.math.floor(x),
             tf.math.ceil(x), tf.math.round(x), m.reciprocal(x + 10.0), tf.sigmoid(x), m.softplus(x), m.erf(x), m.expm1(x),
             m.log1p(tf.abs(x)), tf.square(x), tf.sign(x), -x, tf.nn.relu(x), tf.nn.softmax(x), tf.nn.log_softmax(x),
             m.cumsum(x, axis=1), tf.reverse(x, [0, 1]), tf.tile(x, [2, 1]), tf.expand_dims(x, -1),
             tf.squeeze(tf.expand_dims(x, 0)), tf.zeros_like(x), tf.ones_like(x), tf.einsum("ij,kj->ik", x, x),
             tf.maximum(x, 0.5), tf.minimum(x, 0.5), m.squared_difference(x, 1.0), x ** 2.0, x / 3.0]
        b = [m.is_nan(x / x), m.is_inf(1.0 / (x - x)), m.is_finite(x), tf.logical_and(x > 0, x < 1),
             tf.logical_or(x > 1, x < -1), tf.logical_not(x > 0), tf.reduce_any(x > 1, axis=0), tf.reduce_all(x > -3)]
        r = [tf.reduce_sum(x), tf.reduce_sum(x, axis=1, keepdims=True), tf.reduce_prod(x, axis=0), tf.reduce_max(x, 1),
             tf.reduce_min(x), tf.reduce_mean(x, axis=0), tf.argmax(x, axis=1), tf.argmin(x, axis=0),
             tf.reduce_sum(x, axis=k)]
        i = tf.cast(x * 10.0, tf.int32)
        ints = [i // 3, i % 3, tf.abs(i), i ** 2, tf.reduce_mean(i, axis=1), i & 6, i | 1, i ^ 5, ~i, tf.reduce_sum(i),
                tf.shape(x), tf.size(x), tf.rank(x), tf.eye(3), tf.ones([2, 2], tf.int32), tf.cast(x > 0, tf.float64)]
        return u, b, r, ints

    x = np.array([[0.5, -1.0, 2.0], [-2.5, 1.5, 0.25]], np.float32)
    check(f, (tf.TensorSpec([None, 3], tf.float32), I32), [(x, np.int32(1)), (x[:1] * -1.5, np.int32(0))],
          rtol=2e-5, atol=1e-5)


def test_function_without_outputs_is_not_exportable(capsys):
    fn = tf.function(_sample("fizzbuzz").fizzbuzz)
    with pytest.raises(NotExportableError, match="nothing to export"):
        to_onnx(fn, args=(I32,))


def test_staged_benchmark_programs():
    import importlib.util
    import os

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "bench_runtime.py")
    spec = importlib.util.spec_from_file_location("_onnx_bench_runtime", path)
    b = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(b)
    rng = np.random.default_rng(0)
    vec = (rng.random(50) * 0.5 + 0.5).astype(np.float32)
    inputs = rng.random((20, 4, 8)).astype(np.float32)
    w = (rng.random((8, 16)) * 0.1).astype(np.float32)
    u = (rng.random((16, 16)) * 0.1).astype(np.float32)
    s0 = np.zeros((4, 16), np.float32)
    check(tf.function(b.collatz), (I32,), [(np.int32(27),), (np.int32(1),)])
    check(tf.function(b.squares), (I32,), [(np.int32(100),), (np.int32(0),)])
    check(tf.function(b.tanh_loop), (tf.TensorSpec([50], tf.float32),), [(vec,)], rtol=1e-4, atol=1e-5)
    check(tf.function(b.rnn), tuple(tf.TensorSpec(a.shape, tf.float32) for a in (inputs, w, u, s0)), [(inputs, w, u, s0)],
          rtol=1e-5)


def test_variable_assigned_in_cond_in_while():
    acc = tf.Variable(0)
    hist = tf.Variable(tf.zeros([3], tf.int32))

    @tf.function
    def f(n):
        i = 0
        while i < n:
            if i % 2 == 0:
                acc.assign_add(i)
            else:
                acc.assign_sub(1)
                hist.assign(hist + tf.one_hot(i % 3, 3, dtype=tf.int32))
            i += 1
        return acc.read_value() * 2

    model = to_onnx(f, args=(I32,))
    a0, h0 = acc.numpy(), hist.numpy()
    got = ort_run(model, np.int32(7))
    want = f(tf.constant(7)).numpy()
    assert int(got[0]) == int(want)
    assert int(got[1]) == int(acc.numpy()) and acc.numpy() != a0
    np.testing.assert_array_equal(got[2], hist.numpy())
    assert (hist.numpy() != h0).any()


@pytest.mark.parametrize("opset", [18, 21])
def test_opsets_and_input_signature(opset):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x * x)

    model = to_onnx(f, opset=opset)
    assert model.opset_import[0].version == opset
    assert float(ort_run(model, np.array([1.0, 2.0], np.float32))[0]) == 5.0
    with pytest.raises(NotExportableError, match="opset 11"):
        to_onnx(f, opset=11)


def test_mask_unique_xent():
    @tf.function
    def f(x, v, labels):
        a = tf.boolean_mask(x, x[:, 0] > 0)
        b = tf.boolean_mask(x, x > 0.5)
        c = tf.boolean_mask(x, tf.constant([True, False, True]), axis=1)
        y, idx = tf.unique(v)
        loss = tf.nn.softmax_cross_entropy_with_logits(labels, x)
        return a, b, c, y, idx, loss

    x = np.array([[0.5, -1.0, 2.0], [-2.5, 1.5, 0.25], [1.0, 0.75, -0.5]], np.float32)
    labels = np.array([[0, 1, 0], [0.5, 0.5, 0], [0, 0, 1]], np.float32)
    check(f, (tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None], tf.int32), tf.TensorSpec([None, 3], tf.float32)),
          [(x, np.array([3, 1, 3, 7, 1, 0], np.int32), labels)])


def test_segment_ops_and_det():
    @tf.function
    def f(x, ids, uids, m):
        sorted_ = [tf.math.segment_sum(x, ids), tf.math.segment_mean(x, ids), tf.math.segment_max(x, ids),
                   tf.math.segment_min(x, ids), tf.math.segment_prod(x, ids)]
        unsorted = [g(x, uids, 4) for g in (tf.math.unsorted_segment_sum, tf.math.unsorted_segment_mean,
                                             tf.math.unsorted_segment_max, tf.math.unsorted_segment_min,
                                             tf.math.unsorted_segment_prod)]
        i = tf.cast(x * 4.0, tf.int32)
        ints = [tf.math.segment_sum(i, ids), tf.math.unsorted_segment_max(i, uids, 4), tf.math.segment_mean(i, ids)]
        return sorted_, unsorted, ints, tf.linalg.det(m)

    x = np.array([[1.0, 2.0], [3.0, -4.0], [0.5, 0.25], [-1.5, 2.5], [2.0, 2.0]], np.float32)
    m = np.array([[[2.0, 1.0], [1.0, 3.0]], [[0.5, 0.0], [4.0, -2.0]]], np.float32)
    check(f, (tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.int32),
              tf.TensorSpec([None, 2, 2], tf.float32)),
          [(x, np.array([0, 0, 2, 3, 3], np.int32), np.array([3, -1, 0, 3, 1], np.int32), m)], rtol=1e-5)


def test_diagonals_trace_and_sparse_cross_entropy():
    # a classifier's evaluation function: its per-example sparse loss, and
    # matrix diagonals (batched, non-square, an inf off the diagonal)
    @tf.function
    def f(logits, labels, m):
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        return (loss, tf.reduce_mean(loss), tf.linalg.diag_part(m), tf.linalg.trace(m[..., :2, :2]),
                tf.linalg.diag(logits), tf.linalg.diag_part(tf.transpose(m, [0, 2, 1])))

    rng = np.random.default_rng(3)
    logits = rng.standard_normal((4, 5)).astype(np.float32)
    m = rng.standard_normal((2, 2, 3)).astype(np.float32)
    m[0, 1, 2] = np.inf
    check(f, (tf.TensorSpec([None, 5], tf.float32), tf.TensorSpec([None], tf.int32),
              tf.TensorSpec([None, None, None], tf.float32)),
          [(logits, np.array([0, 4, 2, 1], np.int32), m), (logits[:1], np.array([3], np.int32), m[:1, :1])])


def test_tensor_array_scan_outputs():
    """TensorArrays written once per iteration of a for over range(n) become
    Loop scan outputs (no sequence copies); with break, zero iterations, and
    read/size/concat after the loop."""
    @tf.function
    def f(n, stop):
        a = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        b = tf.TensorArray(tf.int32, size=n)
        c = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
        for i in tf.range(n):
            if i == stop:
                break
            a = a.write(i, tf.cast(i, tf.float32) * 0.5)
            c = c.write(i, tf.fill([2], tf.cast(i, tf.float32)))
        for j in tf.range(n):
            b = b.write(j, j * j)
        return a.stack(), a.size(), b.stack(), b.read(n - 1), c.concat(), c.stack()

    check(f, (I32, I32), [(np.int32(6), np.int32(4)), (np.int32(5), np.int32(99)), (np.int32(1), np.int32(0)),
                          (np.int32(0), np.int32(0))][:3])

    @tf.function
    def g(n):
        b = tf.TensorArray(tf.int32, size=n)
        for j in tf.range(n):
            b = b.write(j, j * j)
        return b.stack(), b.size()

    model = check(g, (I32,), [(np.int32(5),), (np.int32(0),)])
    assert "Sequence" not in str(model.graph)  # a scan output, no sequence


def test_keras_recurrent_models_export_with_dynamic_batch_and_time():
    # the RNN layers carry a TensorArray of the sequence that return_sequences=False
    # never writes; onnxruntime runs the model at several batch and time sizes
    tf.random.set_seed(4)
    rng = np.random.default_rng(4)
    for layer in (tf.keras.layers.LSTM(6), tf.keras.layers.GRU(5, return_sequences=True),
                  tf.keras.layers.SimpleRNN(4)):
        model = tf.keras.Sequential([tf.keras.Input(shape=(None, 3)), layer, tf.keras.layers.Dense(2)])
        fn = tf.function(lambda x, model=model: model(x))
        check(fn, (tf.TensorSpec([None, None, 3], tf.float32),),
              [(rng.standard_normal((b, t, 3)).astype(np.float32),) for b, t in ((2, 4), (1, 6), (3, 1))],
              rtol=1e-4, atol=1e-5)


# ------------------------------------ staged loops and conds over None dimensions
def _cumulative_rows(x):
    acc = tf.zeros([tf.shape(x)[1]])
    out = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(tf.shape(x)[0]):
        acc = acc + x[i]
        if tf.reduce_sum(acc) > 0:
            out = out.write(i, acc)
        else:
            out = out.write(i, -acc)
    return out.stack(), acc


def _shrink(x):
    while tf.size(x) > 2:
        x = x[1:] * 0.5 + x[:-1]
    return x


def _grow(n, x):
    r = x
    for _ in tf.range(n):
        r = tf.concat([r, r[-1:] + 1.0], 0)
    return r


def _rows_until_small(x):
    s = tf.constant(0.0)
    for row in x:
        if tf.reduce_max(row) > 0.5:
            s += tf.reduce_sum(row)
        else:
            break
    return s


def _head_or_doubled(x):
    if tf.shape(x)[0] > 3:
        y = x[:3]
    else:
        y = tf.concat([x, x], 0)
    return y, tf.reduce_mean(y, axis=0)


def _matrix_power(m, k):
    r = tf.eye(tf.shape(m)[0])
    i = 0
    while i < k:
        r = tf.matmul(r, m)
        i += 1
    return r


def _nested_positive(x):
    t = tf.constant(0.0)
    for i in tf.range(tf.shape(x)[0]):
        for j in tf.range(tf.shape(x)[1]):
            if x[i, j] > 0:
                t += x[i, j] * tf.cast(i + j, tf.float32)
    return t


def _rnn(x, w):
    h = tf.zeros([tf.shape(x)[0], tf.shape(w)[1]])
    for t in tf.range(tf.shape(x)[1]):
        h = tf.tanh(tf.matmul(x[:, t, :], w) + h)
    return h


_R = np.random.default_rng(5)


def _f32(*shape, shift=0.0):
    return _R.normal(size=shape).astype(np.float32) + shift


_NONE_DIMS = {  # fn, input_signature, inputs of several sizes (zero rows too), all run by one ONNX session
    "cumulative_rows": (_cumulative_rows, [tf.TensorSpec([None, None])],
                        [(_f32(n, k),) for n, k in ((1, 3), (4, 2), (7, 5), (0, 3))]),
    "shrink": (_shrink, [tf.TensorSpec([None])], [(_f32(n),) for n in (1, 2, 3, 6, 11)]),
    "grow": (_grow, [I32, tf.TensorSpec([None])], [(np.int32(k), _f32(m)) for k, m in ((0, 1), (3, 2), (5, 4))]),
    "rows_until_small": (_rows_until_small, [tf.TensorSpec([None, 4])],
                         [(_f32(n, 4, shift=1.0),) for n in (0, 1, 5, 9)] + [(_f32(6, 4),)]),
    "head_or_doubled": (_head_or_doubled, [tf.TensorSpec([None, 2])], [(_f32(n, 2),) for n in (1, 3, 4, 8)]),
    "matrix_power": (_matrix_power, [tf.TensorSpec([None, None]), I32],
                     [(_f32(n, n), np.int32(k)) for n, k in ((1, 3), (3, 0), (4, 5))]),
    "nested_positive": (_nested_positive, [tf.TensorSpec([None, None])],
                        [(_f32(*s),) for s in ((1, 1), (3, 4), (5, 2), (0, 3), (2, 0))]),
    "rnn": (_rnn, [tf.TensorSpec([None, None, 3]), tf.TensorSpec([3, 4])],
            [(_f32(b, t, 3), _f32(3, 4)) for b, t in ((1, 1), (2, 5), (4, 0))]),
}


@pytest.mark.parametrize("name", sorted(_NONE_DIMS))
def test_loops_and_conds_over_none_dimensions_with_several_sizes(name):
    # one exported model (symbolic dims), one onnxruntime session, inputs of
    # several sizes: each must equal the numpy runtime's answer. (An empty
    # dynamic TensorArray whose element shape is not known when exporting
    # failed in onnxruntime: ConcatFromSequence of an empty sequence.)
    fn, sig, inputs = _NONE_DIMS[name]
    check(tf.function(fn, input_signature=sig), sig, inputs)


# ------------------------------------------------------------- gradients
def _grads_of(loss_fn):
    def f(x, w):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            loss = loss_fn(x, w)
        return (loss, *tape.gradient(loss, [x, w]))

    return f


def _pool_input(x, w):
    return tf.nn.relu(tf.reshape(tf.matmul(tf.reshape(x, [-1, 4]), w), [tf.shape(x)[0], 6, 6, 2]))


_GRADIENTS = {  # loss(x, w): x (None, 6, 6, 2) or (None, 4); w (4, 4)
    # relu makes ties (zeros): every window gives dy to its first maximum, as the runtime
    "max_pool_same": lambda x, w: tf.reduce_sum(tf.nn.max_pool2d(_pool_input(x, w), 2, 1, "SAME") ** 2),
    "max_pool_overlapping": lambda x, w: tf.reduce_sum(tf.nn.max_pool2d(_pool_input(x, w), 3, 2, "VALID") * 3.0),
    "max_pool_stride_over_window": lambda x, w: tf.reduce_sum(tf.nn.max_pool2d(_pool_input(x, w), 2, 3, "SAME") ** 2),
    "avg_pool_same": lambda x, w: tf.reduce_sum(tf.nn.avg_pool2d(_pool_input(x, w), 3, 2, "SAME") ** 2),
    "avg_pool_valid": lambda x, w: tf.reduce_sum(tf.nn.avg_pool2d(x * w[0, 0], [2, 3], [1, 2], "VALID") ** 2),
    "conv_same_strided": lambda x, w: tf.reduce_sum(tf.nn.conv2d(x, tf.reshape(w, [2, 2, 2, 2]), 2, "SAME") ** 2),
    "conv_valid_dilated": lambda x, w: tf.reduce_sum(
        tf.nn.relu(tf.nn.conv2d(x, tf.reshape(w, [2, 2, 2, 2]), 1, "VALID", dilations=2)) * 1.5),
    "max_pool1d": lambda x, w: tf.reduce_sum(tf.nn.max_pool1d(tf.reshape(_pool_input(x, w), [-1, 36, 2]), 3, 2, "SAME")),
    "dense_relu_xent": lambda x, w: tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        tf.zeros([tf.shape(x)[0]], tf.int32) + 1, tf.nn.bias_add(tf.nn.relu(tf.matmul(tf.reshape(x, [-1, 4]), w)),
                                                                  tf.constant([0.1, -0.2, 0.3, 0.0])))),
    "broadcast_over_none_batch": lambda x, w: tf.reduce_sum(
        tf.reduce_max(tf.reshape(x, [tf.shape(x)[0], -1, 4]) * w[0], axis=1, keepdims=True) / tf.reduce_sum(w, axis=0)),
    "reduce_max_dynamic_axis": lambda x, w: tf.reduce_sum(
        tf.reduce_max(tf.reshape(x, [tf.shape(x)[0], -1, 4]), axis=tf.shape(x)[0] * 0 + 1) * w[1]),
    "tile": lambda x, w: tf.reduce_sum(tf.tile(w, [2, 3]) * tf.reshape(tf.range(96.0), [8, 12])) + tf.reduce_sum(
        tf.tile(tf.reshape(x, [-1, 4]), [1, 2]) ** 2),
    "gather_rows": lambda x, w: tf.reduce_sum(tf.gather(w, [3, 0, 3, 1]) * tf.reshape(tf.range(16.0), [4, 4])) + tf.reduce_sum(
        tf.gather(tf.reshape(x, [-1, 4]), [2, 1], axis=1) ** 2),
    "gather_batch_dims": lambda x, w: tf.reduce_sum(
        tf.gather(w, tf.constant([[3, 0], [1, 1], [2, 2], [0, 3]]), axis=1, batch_dims=1) * 2.0) + tf.reduce_sum(
        tf.gather(tf.reshape(x, [-1, 4]), tf.argmax(tf.reshape(x, [-1, 4]), axis=1), axis=1, batch_dims=1) ** 2),
    "top_k_sort": lambda x, w: tf.reduce_sum(tf.math.top_k(tf.reshape(x, [-1, 4]), 2).values * w[0, :2]) + tf.reduce_sum(
        tf.sort(w, axis=0) * tf.reshape(tf.range(16.0), [4, 4])),
    "concat_cumsum": lambda x, w: tf.reduce_sum(tf.math.cumsum(tf.concat([w, w * 2.0, tf.reshape(x, [-1, 4])], 0), axis=0) ** 2),
}


@pytest.mark.parametrize("name", sorted(_GRADIENTS))
def test_gradients_export_and_agree_with_the_runtime(name):
    # A function that differentiates with a GradientTape exports: the
    # gradients' helper ops (MaxPoolGrad, AvgPoolGrad, the convolution's
    # input and filter gradients, broadcasts and sums to shapes known
    # only when running, tile/gather/sort/concat/cumsum gradients) have ONNX
    # lowerings. Three ways: eager, the runtime's graph, onnxruntime.
    f = _grads_of(_GRADIENTS[name])
    pool = name.startswith(("max_pool", "avg_pool", "conv"))
    sig = [tf.TensorSpec([None, 6, 6, 2] if pool else [None, 4]), tf.TensorSpec([4, 4])]
    rng = np.random.default_rng(3)
    w = rng.normal(size=(4, 4)).astype(np.float32)
    inputs = [(rng.normal(size=(n, 6, 6, 2) if pool else (n, 4)).astype(np.float32), w) for n in (1, 3)]
    model = check(tf.function(f, input_signature=sig), sig, inputs, rtol=1e-5, atol=1e-5)
    for x, w in inputs:  # eager too
        for e, g in zip(f(tf.constant(x), tf.constant(w)), ort_run(model, x, w)):
            np.testing.assert_allclose(g, e.numpy(), rtol=1e-5, atol=1e-5)


def test_a_training_step_exports_with_the_variables_new_values():
    w = tf.Variable(np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32))
    b = tf.Variable(np.zeros(3, np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 4]), tf.TensorSpec([None], tf.int32)])
    def step(x, y):
        with tf.GradientTape() as tape:
            logits = tf.nn.relu(tf.matmul(x, w) + b)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
        return loss

    x = np.random.default_rng(1).normal(size=(5, 4)).astype(np.float32)
    y = np.array([0, 2, 1, 1, 0], np.int32)
    model = to_onnx(step)
    w0, b0 = w.numpy(), b.numpy()
    loss, new_w, new_b = ort_run(model, x, y)
    want = step(tf.constant(x), tf.constant(y))
    np.testing.assert_allclose(loss, want.numpy(), rtol=1e-6)
    np.testing.assert_allclose(new_w, w.numpy(), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(new_b, b.numpy(), rtol=1e-5, atol=1e-7)
    assert not np.allclose(new_w, w0) and not np.allclose(new_b, b0)


@pytest.mark.parametrize("strides, padding, out", [(2, "SAME", 8), (1, "VALID", 6), (2, "VALID", 9)])
def test_conv2d_transpose_exports(strides, padding, out):
    # its op is the convolution's input gradient: a ConvTranspose padded to the output size
    rng = np.random.default_rng(strides)
    x, f = rng.normal(size=(2, 4, 4, 5)).astype(np.float32), rng.normal(size=(3, 3, 3, 5)).astype(np.float32)
    sig = [tf.TensorSpec([None, 4, 4, 5]), tf.TensorSpec([3, 3, 3, 5])]

    def up(x, f):
        return tf.nn.conv2d_transpose(x, f, tf.stack([tf.shape(x)[0], out, out, 3]), strides, padding)

    check(tf.function(up, input_signature=sig), sig, [(x, f), (x[:1], f)], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("pshape, ishape, axis, batch_dims", [
    ((2, 3, 5, 2), (2, 3, 4), 2, 2), ((2, 3, 5, 2), (2, 4), 2, 1), ((3, 4, 6), (3, 2, 2), 2, 1)])
def test_gradient_of_gather_with_batch_dims_exports(pshape, ishape, axis, batch_dims):
    rng = np.random.default_rng(len(ishape))
    p = rng.normal(size=pshape).astype(np.float32)
    idx = rng.integers(0, pshape[axis], size=ishape).astype(np.int32)

    def f(p, idx):
        with tf.GradientTape() as tape:
            tape.watch(p)
            y = tf.gather(p, idx, axis=axis, batch_dims=batch_dims)
            loss = tf.reduce_sum(y * tf.sin(tf.cast(tf.reshape(tf.range(tf.size(y)), tf.shape(y)), tf.float32)))
        return y, tape.gradient(loss, p)

    sig = [tf.TensorSpec([None, *pshape[1:]]), tf.TensorSpec([None, *ishape[1:]], tf.int32)]
    check(tf.function(f, input_signature=sig), sig, [(p, idx), (p[:1], idx[:1])], rtol=1e-5, atol=1e-5)

"""function(jit_compile=True): the traced graph lowered to one JAX function and
compiled by XLA. Differential: every program runs with the numpy runtime and
with jit_compile, and the two must agree (values and dtypes); what XLA cannot
compile is one located InvalidArgumentError at trace time."""
from __future__ import annotations

import os
import random
import re

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import autograph_cli.tf as tf  # noqa: E402

HERE = os.path.abspath(__file__)


def both(f, *args, rtol=2e-5, **kw):
    """f through the numpy runtime and through XLA; asserts they agree."""
    want = tf.function(f, **kw)(*args)
    got = tf.function(f, jit_compile=True, **kw)(*args)
    _same(got, want, rtol)
    return got


def _same(got, want, rtol=2e-5):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, type(want)) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w, rtol)
        return
    if isinstance(want, dict):
        assert sorted(got) == sorted(want)
        for k in want:
            _same(got[k], want[k], rtol)
        return
    if not isinstance(want, tf.Tensor):
        assert got == want
        return
    assert isinstance(got, tf.Tensor)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    g, w = got.numpy(), want.numpy()
    assert np.shape(g) == np.shape(w)
    assert np.asarray(g).dtype == np.asarray(w).dtype
    if np.asarray(w).dtype.kind == "f":
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-6)
    else:
        np.testing.assert_array_equal(g, w)


# ------------------------------------------------------------ seed programs
def collatz(x):
    count = tf.constant(0)
    while x != 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        count += 1
    return count


def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result


def squares(n):
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32) * 2.0)
    return ta.stack()


def tanh_loop(x):
    while tf.reduce_sum(x) > 1:
        x = tf.tanh(x)
    return x


def rnn(inputs, w, u, state):
    n = inputs.shape[0]
    states = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        state = tf.tanh(tf.matmul(inputs[i], w) + tf.matmul(state, u))
        states = states.write(i, state)
    return states.stack()


def fizzbuzz(n):
    fizz = tf.constant(0)
    buzz = tf.constant(0)
    for i in tf.range(1, n + 1):
        if i % 15 == 0:
            continue
        if i % 3 == 0:
            fizz += 1
        elif i % 5 == 0:
            buzz += i
        if buzz > 200:
            break
    return fizz, buzz


def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


def first_negative(xs):
    idx = tf.constant(-1)
    pos = tf.constant(0)
    for x in xs:
        if x < 0.0:
            idx = pos
            break
        pos += 1
    return idx


def dtypes64(a, b):
    c = a * 3 + tf.cast(b, tf.int64)
    d = tf.cast(c, tf.float64) / 7.0
    while d < 1e12:
        d = d * d + 1.0
    return c, d, tf.reduce_mean(tf.cast(a, tf.int32) * tf.ones([3], tf.int32))


def structured(x):
    out = {"sum": tf.reduce_sum(x), "max": tf.reduce_max(x, axis=0)}
    return out, (x[0], tf.shape(x)), [tf.argmax(x, axis=1)]


def dynamic_rnn(input_data, initial_state):
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]
    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        state = input_data[i] + state
        states = states.write(i, state)
    return tf.transpose(states.stack(), [1, 0, 2])


def list_accumulation(x):
    out = []
    for i in tf.range(5):
        out.append(x * tf.cast(i, tf.float32))
    return tf.stack(out)


RNG = np.random.default_rng(0)
_XI = RNG.integers(-1, 2, size=(10, 10)).astype(np.int32)
_VEC = (RNG.random(50) * 0.5 + 0.5).astype(np.float32)
_INPUTS = RNG.random((20, 4, 8)).astype(np.float32)
_W = (RNG.random((8, 16)) * 0.1).astype(np.float32)
_U = (RNG.random((16, 16)) * 0.1).astype(np.float32)

PROGRAMS = [
    ("collatz", collatz, (tf.constant(27),)),
    ("power", power, (tf.constant(_XI), 20)),
    ("squares", squares, (10,)),
    ("tanh_loop", tanh_loop, (tf.constant(_VEC),)),
    ("rnn", rnn, (tf.constant(_INPUTS), tf.constant(_W), tf.constant(_U), tf.constant(np.zeros((4, 16), np.float32)))),
    ("fizzbuzz", fizzbuzz, (tf.constant(100),)),
    ("sum_even", sum_even, (tf.constant([10, 12, 15, 20]),)),
    ("first_negative", first_negative, (tf.constant([1.0, 2.0, -3.0, 4.0]),)),
    ("first_negative_none", first_negative, (tf.constant([1.0, 2.0]),)),
    ("dtypes64", dtypes64, (tf.constant(5, tf.int64), tf.constant(2))),
    ("structured", structured, (tf.constant([[1.0, 5.0], [3.0, 2.0]]),)),
    ("dynamic_rnn", dynamic_rnn, (tf.constant(RNG.random((2, 3, 4)).astype(np.float32)), tf.zeros([2, 4]))),
    ("list_accumulation", list_accumulation, (tf.constant([1.0, 2.0]),)),
]


# XLA's float32 tanh is another approximation than numpy's (both within a few
# ulps); tanh_loop applies it ~2,500 times, so the results drift apart by 1e-4
RTOL = {"tanh_loop": 1e-3}


@pytest.mark.parametrize("name,f,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_numpy_runtime(name, f, args):
    both(f, *args, rtol=RTOL.get(name, 2e-5))


def test_experimental_compile_is_jit_compile():
    f = tf.function(collatz, experimental_compile=True)
    assert int(f(tf.constant(6))) == 8
    cf = f.get_concrete_function(tf.constant(6))
    assert type(cf._fn).__name__ == "XlaFunction"


def test_one_compilation_per_concrete_function():
    f = tf.function(collatz, jit_compile=True)
    for v in (27, 6, 7):
        f(tf.constant(v))
    cf = f.get_concrete_function(tf.constant(1))
    assert len(cf._fn._compiled) == 1
    assert f.experimental_get_tracing_count() == 1


def halve_until_small(x):
    steps = tf.constant(0)
    while tf.reduce_max(tf.abs(x)) > 1.0:
        x = x / 2.0
        steps += 1
    return x, steps


def test_input_signature_with_unknown_dims():
    sig = [tf.TensorSpec([None], tf.float32)]
    f = tf.function(halve_until_small, jit_compile=True, input_signature=sig)
    for n in (3, 50):
        x = tf.constant(_VEC[:n] * 100.0)
        _same(f(x), tf.function(halve_until_small)(x))


def test_x64_is_scoped():
    both(dtypes64, tf.constant(5, tf.int64), tf.constant(2))
    import jax.numpy as jnp

    assert jnp.ones(2).dtype == np.float32  # the process keeps JAX's defaults


# ------------------------------------------------------------ random programs
def _random_programs(tmp_path, n, seed):
    import converters
    from _differential import exec_converted
    from test_staged_random_programs import INPUTS, Gen, _call

    rng = random.Random(seed)
    sources = [Gen(rng).program(f"prog_{k}") for k in range(n)]
    path = tmp_path / f"_random_xla_{seed}.py"
    text = "\n\n".join(sources)
    path.write_text(text)
    conv = exec_converted(converters.convert(text, filename=str(path), fast_path=True), f"_random_xla_{seed}", str(path))
    outcomes = {"same": 0, "refused": 0}
    for k, src in enumerate(sources):
        fc = getattr(conv, f"prog_{k}")
        ref, xla = tf.function(fc), tf.function(fc, jit_compile=True)
        for a, b in INPUTS:
            want = _call(ref, tf.constant(a), tf.constant(b))
            got = _call(xla, tf.constant(a), tf.constant(b))
            if got[0] == "raise" and "cannot be compiled with jit_compile=True" in str(got[1]):
                outcomes["refused"] += 1
                continue
            if want[0] == "value":
                assert got == want, f"{src}\non {(a, b)}: numpy runtime {want}, jit_compile {got}"
            else:
                assert got[0] == "raise" and isinstance(got[1], type(want[1])), (
                    f"{src}\non {(a, b)}: numpy runtime raised {want[1]!r}, jit_compile {got}")
            outcomes["same"] += 1
    return outcomes


def test_random_programs_equal_numpy_runtime(tmp_path):
    out = _random_programs(tmp_path, 25, seed=1)
    assert out["refused"] == 0, out


@pytest.mark.slow
def test_random_programs_equal_numpy_runtime_many(tmp_path):
    out = _random_programs(tmp_path, 300, seed=2)
    assert out["refused"] == 0, out


# ------------------------------------------------------------ state
def test_variables_are_inputs_and_written_back():
    v = tf.Variable(1.0)
    w = tf.Variable(tf.zeros([3]))

    def step(x):
        for i in tf.range(3):
            v.assign_add(x)
            if v > 4.0:
                w.assign(w + tf.cast(i, tf.float32))
        v.assign(v * 2.0)
        return v.read_value() + 1.0, w.read_value()

    ref = tf.function(step)
    want = [ref(tf.constant(1.5)) for _ in range(3)]
    want_v, want_w = v.numpy(), w.numpy()
    v.assign(1.0)
    w.assign(tf.zeros([3]))
    xla = tf.function(step, jit_compile=True)
    got = [xla(tf.constant(1.5)) for _ in range(3)]
    _same(got, want)
    assert v.numpy() == want_v and np.array_equal(w.numpy(), want_w)


_COUNT = None


def _counted(t):
    _COUNT.assign_add(1)
    return t % 3 != 0


def _test_writes(a):
    _COUNT.assign(0)
    w = a * 0
    while w < (2 if _counted(a) else 3):  # the test assigns a variable: as often as Python evaluates it
        w += 1
    n = a * 0
    while _COUNT.assign_add(1) < 8:
        n += 1
    return w, n, _COUNT.read_value()


@pytest.mark.parametrize("jit", [False, True])
def test_a_while_test_that_assigns_variables_runs_as_often_as_in_python(jit):
    global _COUNT
    _COUNT = tf.Variable(0)
    want = [int(t) for t in _test_writes(3)]
    assert want == [3, 3, 8]
    got = tf.function(_test_writes, jit_compile=jit)(tf.constant(3))
    assert [int(t.numpy()) for t in got] == want


def test_variable_created_in_the_function():
    class Counter(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function(jit_compile=True)
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.zeros_like(x))
            self.v.assign_add(x)
            return self.v.read_value()

    c = Counter()
    assert c(tf.constant(2.0)).numpy() == 2.0
    assert c(tf.constant(3.0)).numpy() == 5.0


def test_tensor_array_dynamic_size_with_known_writes():
    def f(x):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(6):
            ta = ta.write(i, x * i)
        return ta.stack(), ta.size()

    both(f, tf.constant(3))


def test_dynamic_size_tensor_array_over_the_rows_of_a_none_dimension():
    # shapes are fixed per compiled call: the trip count of tf.range(tf.shape(x)[0])
    # is known when compiling, so is the TensorArray's length
    sig = [tf.TensorSpec([None, 3], tf.float32)]

    def f(x):
        n = tf.shape(x)[0]
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, x[i] * 2.0)
            ta = ta.write(i + n, x[i] - 1.0)
        rows = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        k = 0
        for row in x:  # iterating over the tensor itself
            for j in tf.range(2):
                rows = rows.write(k, tf.cast(tf.reduce_sum(row), tf.int32) + j)
                k += 1
        return ta.stack(), ta.size(), rows.stack()

    jf = tf.function(f, jit_compile=True, input_signature=sig)
    for n in (1, 4, 2):
        x = tf.constant(np.arange(3 * n, dtype=np.float32).reshape(n, 3))
        _same(jf(x), tf.function(f, input_signature=sig)(x))
        assert jf(x)[0].shape == (2 * n, 3)


def test_tensor_array_read_unstack_and_concat():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        acc = tf.zeros([2])
        for i in tf.range(3):
            acc += ta.read(i)
        return acc, ta.concat()

    both(f, tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))


# ------------------------------------------------------------ print
def test_print_matches_numpy_runtime_in_order(capfd):
    def f(x):
        tf.print("start", x)
        for i in tf.range(3):
            if i % 2 == 0:
                tf.print("even", i, x * tf.cast(i, tf.float32))
        tf.print({"k": x[0]})
        return x

    x = tf.constant([1.5, -2.0, 3.25, 4.0, 5.0, 6.0, 7.0])
    tf.function(f)(x)
    want = capfd.readouterr()
    tf.function(f, jit_compile=True)(x)
    got = capfd.readouterr()
    assert got.err == want.err and got.out == want.out
    assert want.err.count("even") == 2


# ------------------------------------------------------------ errors
def _line_of(f, needle):
    import inspect

    lines, start = inspect.getsourcelines(f)
    return start + next(i for i, s in enumerate(lines) if needle in s)


def _refused(f, args, op, needle):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.function(f, jit_compile=True)(*args)
    msg = str(e.value)
    assert "cannot be compiled with jit_compile=True" in msg
    assert f"op {op!r}" in msg, msg
    assert f"{HERE}:{_line_of(f, needle)}" in msg, msg
    assert "Traceback" not in msg and "jax" not in msg.lower().split("jit_compile")[0]
    return msg


def test_py_function_is_refused_with_the_users_line():
    def f(x):
        y = tf.py_function(lambda a: a * 2, [x], tf.float32)
        return y

    _refused(f, (tf.constant(1.0),), "EagerPyFunc", "py_function")


def test_strings_are_refused():
    def f(x):
        return tf.strings.as_string(x)

    msg = _refused(f, (tf.constant(1),), "AsString", "as_string")
    assert "string" in msg


def test_string_argument_is_refused():
    def f(s):
        return tf.strings.join([s, s])

    with pytest.raises(tf.errors.InvalidArgumentError, match="argument 's' is a string tensor"):
        tf.function(f, jit_compile=True)(tf.constant("abc"))


def test_dynamic_size_tensor_array_with_an_initial_size_is_refused():
    # Its final length is max(initial size, last index written + 1): here 2,
    # where a buffer of initial size + writes would stack 3 values.
    def f(x):
        ta = tf.TensorArray(tf.float32, size=1, dynamic_size=True)
        for i in tf.range(2):
            ta = ta.write(i, x)
        return ta.stack()

    assert tf.function(f)(tf.constant(1.0)).numpy().tolist() == [1.0, 1.0]
    msg = _refused(f, (tf.constant(1.0),), "TensorArrayV3", "TensorArray(")
    assert "nonzero initial size" in msg


def test_data_dependent_shape_is_refused():
    def f(n):
        return tf.range(n) * 2

    msg = _refused(f, (tf.constant(4),), "Range", "tf.range")
    assert "depends on the data" in msg


def test_unknown_size_tensor_array_is_refused():
    def f(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i, tf.float32))
        return ta.stack()

    msg = _refused(f, (tf.constant(4),), "TensorArrayV3", "TensorArray(")
    assert "dynamic_size" in msg
    # refused while tracing: no call needed
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.function(f, jit_compile=True).get_concrete_function(tf.constant(4))


def test_stateless_random_ops_equal_the_runtimes_bit_for_bit():
    def f(seed, x):
        a = tf.random.stateless_uniform([2, 3], seed=seed)
        b = tf.random.stateless_normal([4], seed=seed + 1, mean=1.0, stddev=2.0)
        c = tf.random.stateless_truncated_normal([3], seed=[7, 8])
        d = tf.random.stateless_uniform([5], seed=seed, minval=0, maxval=10, dtype=tf.int32)
        acc = tf.zeros([3])
        for i in tf.range(3):  # a seed traced inside a compiled loop
            acc += tf.random.stateless_uniform([3], seed=tf.stack([i, seed[1]]))
        return a * x, b, c, d, acc

    for seed in ([1, 2], [5, -3]):
        got = both(f, tf.constant(seed), tf.constant(2.0), rtol=0)
        assert len(set(got[0].numpy().ravel().tolist())) == 6


def test_gradients_of_reductions_and_tiles_with_tensor_arguments_known_when_compiling():
    # a None dimension keeps tf.shape(x) a tensor: the axis and the multiples are
    # tensors in the graph (ProdDyn, TileGradDyn, ProdDynGrad), fixed per compiled shape
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            ax = tf.shape(x)[0] - 2
            k = tf.shape(x)[0] + 1
            y = tf.reduce_sum(tf.reduce_prod(x, axis=ax) * 2.0) + tf.reduce_sum(tf.tile(x, tf.stack([k, 1])) ** 2)
        return t.gradient(y, x)

    sig = [tf.TensorSpec([None, 3], tf.float32)]
    ops = {n.op for n in tf.function(f, input_signature=sig).get_concrete_function().graph.root.nodes}
    assert {"ProdDynGrad", "TileGradDyn"} <= ops
    both(f, tf.constant([[1.0, 2.0, 0.0], [3.0, -1.0, 2.0]]), input_signature=sig)


def test_random_op_is_refused():
    def f(x):
        return x + tf.random.uniform([2])

    _refused(f, (tf.constant([1.0, 2.0]),), "RandomUniform", "random.uniform")


def test_assert_raises_from_the_users_line():
    def f(x):
        tf.debugging.assert_equal(x, 1, message="x must be one")
        return x + 1

    g = tf.function(f, jit_compile=True)
    assert int(g(tf.constant(1))) == 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be one"):
        g(tf.constant(2))


# ------------------------------------------------------------ gradients
def loss_fn(w, x):
    h = x
    for i in tf.range(3):
        h = tf.tanh(tf.matmul(h, w))
    return tf.reduce_sum(h * h)


def test_gradient_tape_over_a_jit_compiled_function():
    w = tf.Variable(tf.constant(RNG.random((4, 4)).astype(np.float32) * 0.5))
    x = tf.constant(RNG.random((2, 4)).astype(np.float32))
    grads = []
    for kw in ({}, {"jit_compile": True}):
        f = tf.function(loss_fn, **kw)
        with tf.GradientTape() as tape:
            y = f(w, x)
        grads.append((y, tape.gradient(y, w)))
    _same(grads[1], grads[0])


def test_gradient_inside_a_jit_compiled_function():
    def step(w, x):
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.reduce_sum(tf.tanh(tf.matmul(x, w)) ** 2) + tf.reduce_mean(w)
        return y, tape.gradient(y, w)

    both(step, tf.constant(RNG.random((4, 3)).astype(np.float32)), tf.constant(RNG.random((2, 4)).astype(np.float32)))


def test_gradient_of_staged_loops_inside_a_jit_compiled_function():
    def over_range(w, x):
        with tf.GradientTape() as tape:
            tape.watch(w)
            h = x
            for i in tf.range(3):
                h = tf.tanh(tf.matmul(h, w))
            y = tf.reduce_sum(h * h)
        return y, tape.gradient(y, w)

    def over_rows(w, xs):
        with tf.GradientTape() as tape:
            tape.watch([w, xs])
            s = tf.zeros([4])
            for x in xs:
                s = tf.tanh(s * w + x)
            y = tf.reduce_sum(s)
        return tape.gradient(y, [w, xs])

    both(over_range, tf.constant(RNG.random((4, 4)).astype(np.float32) * 0.5),
         tf.constant(RNG.random((2, 4)).astype(np.float32)), rtol=1e-4)
    both(over_rows, tf.constant(RNG.random(4).astype(np.float32)),
         tf.constant(RNG.random((5, 4)).astype(np.float32)), rtol=1e-4)


def test_gradient_of_a_while_loop_of_unknown_length_is_refused():
    def f(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            i = tf.constant(0)
            while i < n:
                y = y * x
                i += 1
        return tape.gradient(y, x)

    with pytest.raises(tf.errors.InvalidArgumentError, match="number of iterations is known only at run time"):
        tf.function(f, jit_compile=True)(tf.constant(2.0), tf.constant(3))
    assert float(tf.function(f)(tf.constant(2.0), tf.constant(3))) == 32.0  # d(x**4)/dx


def test_training_step_updates_variables_like_numpy_runtime():
    def make():
        return tf.Variable(tf.constant(np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32)))

    x = tf.constant(RNG.random((5, 4)).astype(np.float32))
    y = tf.constant(RNG.random((5, 3)).astype(np.float32))

    def run(kw):
        w = make()

        def step(x, y):
            with tf.GradientTape() as tape:
                pred = tf.matmul(x, w)
                loss = tf.reduce_mean((pred - y) ** 2)
            g = tape.gradient(loss, w)
            w.assign_sub(0.1 * g)
            return loss

        f = tf.function(step, **kw)
        losses = [f(x, y) for _ in range(5)]
        return losses, w.numpy()

    (l0, w0), (l1, w1) = run({}), run({"jit_compile": True})
    _same(l1, l0)
    np.testing.assert_allclose(w1, w0, rtol=1e-5)


def test_error_message_names_function():
    def f(x):
        return tf.py_function(lambda a: a, [x], tf.float32)

    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("Function 'f' cannot be compiled")):
        tf.function(f, jit_compile=True)(tf.constant(1.0))


# ------------------------------------------------------------ op lowerings one by one
_M = tf.constant(np.linspace(-2, 3, 12).reshape(3, 4).astype(np.float32))
_I = tf.constant(np.arange(-5, 7).reshape(3, 4).astype(np.int32))
_B = tf.constant([[True, False, True, True], [False, False, True, False], [True, True, True, True]])
OP_CASES = [
    ("Cast", lambda m, i, b: (tf.cast(m, tf.int32), tf.cast(i, tf.float64), tf.cast(b, tf.float32))),
    ("MatMul", lambda m, i, b: (tf.matmul(m, m, transpose_b=True), tf.matmul(i, i, transpose_a=True))),
    ("Sum/Prod/Max/Min", lambda m, i, b: (tf.reduce_sum(m, 0), tf.reduce_prod(i, 1, keepdims=True),
                                          tf.reduce_max(m), tf.reduce_min(i, [0, 1]))),
    ("All/Any", lambda m, i, b: (tf.reduce_all(b, 1), tf.reduce_any(b))),
    ("Mean", lambda m, i, b: (tf.reduce_mean(m, 1), tf.reduce_mean(i, 0), tf.reduce_mean(i))),
    ("Transpose/ExpandDims/Squeeze", lambda m, i, b: (tf.transpose(m), tf.expand_dims(i, 1),
                                                      tf.squeeze(tf.expand_dims(m, 0)))),
    ("Concat/Pack/Unpack", lambda m, i, b: (tf.concat([m, m], 1), tf.stack([i, i], 2), tf.unstack(m)[1])),
    ("Cumsum/Einsum", lambda m, i, b: (tf.cumsum(i, axis=1), tf.cumsum(m, axis=1), tf.einsum("ij,kj->ik", m, m))),
    ("Softmax/LogSoftmax/Softplus", lambda m, i, b: (tf.nn.softmax(m), tf.nn.log_softmax(m), tf.nn.softplus(m))),
    ("Zeros/Ones/Like", lambda m, i, b: (tf.zeros([2, 3], tf.int64), tf.ones([2]), tf.zeros_like(i), tf.ones_like(m))),
    ("ArgMax/ArgMin", lambda m, i, b: (tf.argmax(m, 1), tf.argmin(i, 0))),
    ("Shape/Size/Rank", lambda m, i, b: (tf.shape(m), tf.size(i), tf.rank(m))),
    ("Reshape/Fill/Tile", lambda m, i, b: (tf.reshape(m, [4, 3]), tf.fill([2, 2], 7), tf.tile(i, [2, 1]))),
    ("Erf/Reverse", lambda m, i, b: (tf.math.erf(m), tf.reverse(i, [1]))),
    ("Slicing", lambda m, i, b: (m[1:, ::2], i[-1], m[..., 1], i[:, None, 2])),
    ("Gather/OneHot", lambda m, i, b: (tf.gather(m, [2, 0], axis=0), tf.gather(i, [3, 1], axis=1),
                                       tf.one_hot([0, 3, 1], 4))),
    ("Sort", lambda m, i, b: (tf.sort(i, axis=1, direction="DESCENDING"), tf.sort(m, axis=0))),
    ("Xent", lambda m, i, b: (tf.nn.softmax_cross_entropy_with_logits(tf.nn.softmax(m), m),
                              tf.nn.sparse_softmax_cross_entropy_with_logits([1, 0, 3], m))),
    ("Conv2D", lambda m, i, b: (tf.nn.conv2d(tf.reshape(m, [1, 3, 4, 1]), tf.reshape(m[:2, :2], [2, 2, 1, 1]),
                                             strides=1, padding="SAME"),
                                tf.nn.conv2d(tf.reshape(tf.concat([m, m], 0), [1, 3, 4, 2]),
                                             tf.reshape(m[:, :2] / 4.0, [1, 3, 2, 1]), strides=[1, 2], padding="VALID"))),
    ("Prod/Cumprod/TopK", lambda m, i, b: (tf.reduce_prod(m, 1), tf.reduce_prod(m * tf.cast(i % 5 != 0, tf.float32)), tf.math.cumprod(m, axis=1, exclusive=True),
                                           tf.math.cumsum(m, axis=0, reverse=True),
                                           tf.math.top_k(tf.concat([m, m], 1), k=3)[0],
                                           tf.math.top_k(i % 3, k=2)[1])),
    ("Pad/MirrorPad", lambda m, i, b: (tf.pad(m, [[1, 0], [0, 2]], constant_values=1.5),
                                       tf.pad(i, [[1, 1], [2, 2]], "REFLECT"), tf.pad(m, [[0, 2], [1, 1]], "SYMMETRIC"))),
    ("SplitV", lambda m, i, b: (tf.split(m, [1, -1], axis=1)[1], tf.split(i, 3, axis=0)[2], tf.split(m, 2, axis=1))),
    ("GatherNd/GatherBatched", lambda m, i, b: (tf.gather_nd(m, [[0, 1], [2, 3]]), tf.gather_nd(m, [[1], [0]]),
                                                tf.gather_nd(i, [[[0], [1]], [[2], [0]], [[3], [3]]], batch_dims=1),
                                                tf.gather(m, [[0, 1], [2, 2], [3, 0]], axis=1, batch_dims=1))),
    ("ScatterNd/TensorScatter", lambda m, i, b: (
        tf.scatter_nd([[1], [0], [1]], m, [3, 4]), tf.tensor_scatter_nd_update(i, [[0], [2]], i[:2] * 10),
        tf.tensor_scatter_nd_add(m, [[0, 0], [2, 3], [0, 0]], [1.0, 2.0, 4.0]), tf.tensor_scatter_nd_sub(m, [[1]], m[:1]),
        tf.tensor_scatter_nd_max(i, [[0, 1], [1, 1]], [7, -9]), tf.tensor_scatter_nd_min(m, [[2]], m[:1] - 5.0))),
    ("Segments", lambda m, i, b: (tf.math.unsorted_segment_sum(m, [0, 2, 0], 3), tf.math.unsorted_segment_max(i, [1, -1, 1], 3),
                                  tf.math.unsorted_segment_mean(m, [1, 1, 0], 2), tf.math.unsorted_segment_prod(m, [0, 0, 2], 3),
                                  tf.math.unsorted_segment_min(m, [2, 0, 2], 4), tf.math.segment_max(m, [0, 0, 2]),
                                  tf.math.segment_mean(i, [0, 1, 1]))),
    ("Linalg", lambda m, i, b: (lambda s: (tf.linalg.cholesky(s), tf.linalg.inv(s), tf.linalg.solve(s, m),
                                           tf.linalg.det(s), tf.linalg.slogdet(s), tf.linalg.eigvalsh(s),
                                           tf.linalg.diag_part(s), tf.linalg.diag(m[0]), tf.linalg.trace(s)))(
        tf.matmul(m, m, transpose_b=True) + 3.0 * tf.eye(3))),
    ("Pooling", lambda m, i, b: (lambda x: (tf.nn.max_pool2d(x, 2, 1, "SAME"), tf.nn.max_pool2d(x, [2, 3], 2, "VALID"),
                                            tf.nn.avg_pool2d(x, 3, [1, 2], "SAME"), tf.nn.avg_pool2d(x, 2, 1, "VALID")))(
        tf.reshape(tf.concat([m, m * m], 0), [1, 3, 4, 2]))),
    ("Elementwise", lambda m, i, b: (tf.abs(m), tf.exp(m) - tf.sqrt(tf.abs(m)), i // 3, i % 4, m ** 2,
                                     tf.maximum(m, 0.5), tf.where(b, m, -m), tf.logical_not(b), tf.sigmoid(m))),
]


@pytest.mark.parametrize("name,f", OP_CASES, ids=[c[0] for c in OP_CASES])
def test_op_lowering_equals_numpy_kernel(name, f):
    both(f, _M, _I, _B)


@pytest.mark.parametrize("name,f", OP_CASES, ids=[c[0] for c in OP_CASES])
def test_op_gradients_inside_jit_function(name, f):
    def g(m, i, b):
        with tf.GradientTape() as tape:
            tape.watch(m)
            outs = [o for o in tf.nest.flatten(f(m, i, b)) if o.dtype == tf.float32]
            y = tf.add_n([tf.reduce_sum(o) for o in outs]) if outs else tf.reduce_sum(m)
        return tape.gradient(y, m)

    both(g, _M, _I, _B, rtol=1e-4)


def test_strided_same_conv2d_and_its_gradients():
    def f(x, w):
        with tf.GradientTape() as t:
            t.watch([x, w])
            y = tf.reduce_sum(tf.nn.conv2d(x, w, strides=[2, 1], padding="SAME") ** 2)
        return y, t.gradient(y, [x, w])

    both(f, tf.constant(RNG.random((2, 7, 6, 3)).astype(np.float32)),
         tf.constant(RNG.random((3, 2, 3, 4)).astype(np.float32)), rtol=1e-5)


def test_shapes_xla_cannot_fix_are_refused_at_the_construct():
    def branches(x):
        if tf.reduce_sum(x) > 0:
            y = tf.concat([x, x], 0)
        else:
            y = x
        return y

    def growing(x):
        for i in tf.range(3):
            x = tf.concat([x, x], 0)
        return x

    def prefix_sums(x, n):
        s = tf.constant(0.0)
        for i in tf.range(n):
            s += tf.reduce_sum(x[:i])
        return s

    sig = [tf.TensorSpec([None])]
    msg = _refused(branches, (tf.constant([1.0]),), "If", "if tf.reduce_sum")
    assert "branches" in msg
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop variable changes shape") as e:
        tf.function(growing, jit_compile=True, input_signature=sig)(tf.constant([1.0]))
    assert f"op 'For' ({HERE}:{_line_of(growing, 'for i')})" in str(e.value)
    msg = _refused(prefix_sums, (tf.constant([1.0, 2.0]), tf.constant(2)), "StridedSlice", "x[:i]")
    assert "slice bound is known only at run time" in msg


def test_custom_gradient_inside_a_jit_compiled_function():
    @tf.custom_gradient
    def clipped_square(x):
        def grad(dy):
            return tf.clip_by_value(dy * 2.0 * x, -1.0, 1.0)

        return x * x, grad

    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(clipped_square(x))
        return y, tape.gradient(y, x)

    both(f, tf.constant([0.1, 0.4, 3.0]))


def test_shapes_of_none_dimensions_are_known_to_xla():
    # an input_signature with None dimensions: XLA compiles each call's shapes,
    # so tf.shape() values size a tf.range, a sequence_mask, a fill and a loop
    def attention(q, k, lengths):
        scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(tf.shape(q)[-1], tf.float32))
        mask = tf.sequence_mask(lengths, maxlen=tf.shape(k)[1])
        scores = tf.where(mask[:, None, :], scores, tf.fill(tf.shape(scores), -1e9))
        total = tf.constant(0.0)
        for i in tf.range(tf.shape(q)[0]):
            total += tf.reduce_sum(scores[i])
        return tf.nn.softmax(scores), total, tf.reduce_sum(q, axis=tf.rank(q) - 1)

    sig = [tf.TensorSpec([None, None, 4]), tf.TensorSpec([None, None, 4]), tf.TensorSpec([None], tf.int32)]
    for b, t in ((2, 3), (3, 5)):
        q = tf.constant(RNG.standard_normal((b, t, 4)).astype(np.float32))
        k = tf.constant(RNG.standard_normal((b, t, 4)).astype(np.float32))
        both(attention, q, k, tf.constant(RNG.integers(1, t + 1, b).astype(np.int32)), input_signature=sig,
             rtol=1e-5)


def test_reduction_over_an_axis_from_an_unknown_rank():
    def f(x):
        return tf.reduce_sum(x, axis=tf.rank(x) - 1), tf.reduce_max(x, axis=[0], keepdims=True)

    both(f, tf.constant([[1.0, 2.0], [3.0, 5.0]]), input_signature=[tf.TensorSpec(None)])


def test_loop_that_never_runs_indexes_an_empty_tensor():
    def first_negative(x):
        i = tf.constant(0)
        while i < tf.shape(x)[0]:
            if x[i] < 0:
                return i
            i += 1
        return -1

    sig = [tf.TensorSpec([None])]
    for x in ([1.0, -2.0, 3.0], [1.0], np.zeros(0, np.float32)):
        both(first_negative, tf.constant(x, tf.float32), input_signature=sig)


def test_tensor_array_sized_by_a_none_dimension():
    # map_fn over the batch: a TensorArray of tf.shape(x)[0] elements
    def f(x):
        ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
        for i in tf.range(tf.shape(x)[0]):
            ta = ta.write(i, tf.reduce_sum(x[i]))
        return tf.map_fn(lambda r: tf.reduce_sum(r * r), x), ta.stack()

    for n in (1, 4):
        both(f, tf.constant(RNG.standard_normal((n, 3)).astype(np.float32)), input_signature=[tf.TensorSpec([None, 3])])


def test_tensor_array_of_elements_shaped_by_a_none_dimension():
    # the element shape is known only when compiling: the loop (or cond)
    # carrying the TensorArray runs once abstractly to see what it writes
    def decode(table, start):
        toks = tf.TensorArray(tf.int32, size=4)
        tok = start
        for t in tf.range(4):
            tok = tf.cast(tf.argmax(tf.gather(table, tok), axis=-1), tf.int32)
            toks = toks.write(t, tok)
        return toks.stack()

    def signed(x, k):
        ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
        acc = tf.zeros_like(x[0])
        for i in tf.range(tf.shape(x)[0]):
            acc = acc * 0.5 + x[i]
            if i % 2 == k:
                ta = ta.write(i, acc)
            else:
                ta = ta.write(i, -acc)
        return ta.stack(), ta.read(0)

    table = tf.constant(RNG.standard_normal((10, 10)).astype(np.float32))
    for start in ([1, 4, 7], [2]):
        both(decode, table, tf.constant(start, tf.int32),
             input_signature=[tf.TensorSpec([10, 10]), tf.TensorSpec([None], tf.int32)])
    sig = [tf.TensorSpec([None, None]), tf.TensorSpec([], tf.int32)]
    for shape, k in (((4, 3), 0), ((2, 5), 1)):
        both(signed, tf.constant(RNG.standard_normal(shape).astype(np.float32)), tf.constant(k), input_signature=sig)


def test_keras_recurrent_layers_with_a_none_batch():
    tf.random.set_seed(2)
    x = tf.constant(RNG.standard_normal((3, 5, 2)).astype(np.float32))
    for layer in (tf.keras.layers.GRU(4, return_sequences=True), tf.keras.layers.LSTM(3, return_sequences=True)):
        model = tf.keras.Sequential([tf.keras.Input(shape=(None, 2)), layer])
        both(lambda v, model=model: model(v), x, input_signature=[tf.TensorSpec([None, None, 2])], rtol=1e-4)


def _return_in_loop_over_reversed_range(v, a):
    x = a
    for i in range(tf.size(v) - 1, -1, -1):
        if x < 3:
            return x
        x = x - v[i]
    return x + 100


def test_a_loop_with_a_return_over_zero_items_compiles():
    """A staged loop with a return (a loop with an extra test) over an empty
    tensor: its body is traced all the same, and an index into the empty
    axis was refused by JAX ("index is out of bounds for axis 0 with size 0")."""
    f = tf.function(_return_in_loop_over_reversed_range, jit_compile=True)
    for vec in ([], [1, 2], [4, 1, 1]):
        args = (tf.constant(vec, tf.int32), tf.constant(5))
        assert int(f(*args)) == int(_return_in_loop_over_reversed_range(*args)), vec




@pytest.mark.parametrize("pool", ["MaxPooling2D", "GlobalMaxPooling2D", "reduce_max"])
def test_max_pool_gradient_of_a_fused_input_keeps_every_window(pool):
    # The pooled input is a BatchNormalization's output, which XLA fuses into
    # the training step's kernels and may round differently from the copy
    # MaxPool saw: a gradient that found each window's maximum by comparing
    # with the pooled output lost windows (jax 0.12: after two compiled
    # steps the conv kernel was 5e-3 off, silently). Every window's maximum
    # must get its dy. (The same for a reduce_max / global max pooling,
    # whose gradient compares too: their input is computed once.)
    keras, L = tf.keras, tf.keras.layers
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, size=16)
    x = rng.normal(size=(16, 6, 6, 2)).astype(np.float32)

    def train(jit):
        keras.utils.set_random_seed(0)
        stack = {  # (each failed with jax 0.12 before its fix)
            "MaxPooling2D": [L.Conv2D(3, 3, use_bias=False), L.BatchNormalization(), L.ReLU(), L.MaxPooling2D()],
            "GlobalMaxPooling2D": [L.Conv2D(3, 3, use_bias=False, padding="same"), L.BatchNormalization(),
                                   L.GlobalMaxPooling2D()],
            "reduce_max": [L.Conv2D(3, 3, use_bias=False, padding="same"), L.BatchNormalization(),
                           L.Lambda(lambda t: tf.reduce_max(t, axis=[1, 2]))],
        }[pool]
        model = keras.Sequential([keras.Input((6, 6, 2)), *stack, L.Flatten(), L.Dense(2)])
        model.compile(keras.optimizers.SGD(0.05), keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      jit_compile=jit)
        model.fit(x, y, epochs=2, batch_size=8, shuffle=False, verbose=0)
        return [w.numpy() for w in model.weights]

    for a, b in zip(train(True), train(False)):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def test_gradient_of_tile_with_python_multiples():
    # TileGrad (multiples an attribute) reused its numpy kernel over jax.numpy,
    # whose atleast_1d refuses a tuple: every tf.tile(x, [k, ...]) in a
    # differentiated jit function was refused
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(tf.tile(x, [3, 2]) * tf.reshape(tf.range(36.0), [6, 6]))
        return t.gradient(y, x)

    both(f, tf.constant(RNG.standard_normal((2, 3)).astype(np.float32)))


def _conv_bn(x, k):
    # a convolution's batch-normalized output: XLA fuses it into its consumers
    # and may round each copy differently
    h = tf.nn.conv2d(x, k, 1, "SAME")
    m, v = tf.nn.moments(h, [0, 1, 2])
    return tf.nn.batch_normalization(h, m, v, 0.3, 1.7, 1e-3)


_W = np.random.default_rng(99).normal(size=(8, 6, 6, 3)).astype(np.float32)
_COMPARED = {  # each differentiates an op whose gradient compares x with a value computed from x
    "reduce_max": lambda z: tf.reduce_max(z, axis=[1, 2]),
    "reduce_min": lambda z: tf.reduce_min(z, axis=0),
    "max_pool2d": lambda z: tf.nn.max_pool2d(z, 2, 1, "SAME"),
    "max_pool1d": lambda z: tf.nn.max_pool1d(tf.reshape(z, [8, 36, 3]), 3, 2, "VALID"),
    "segment_max": lambda z: tf.math.segment_max(z, tf.constant([0, 0, 1, 1, 1, 3, 3, 3])),
    "unsorted_segment_min": lambda z: tf.math.unsorted_segment_min(z, tf.constant([2, 0, 1, 2, 0, 1, 2, 0]), 3),
    "tensor_scatter_nd_max": lambda z: tf.tensor_scatter_nd_max(z, [[0], [3]], z[5:7] * 0.9 + 0.1),
    "sort": lambda z: tf.sort(tf.reshape(z, [8, -1]), axis=1),
    "top_k": lambda z: tf.math.top_k(tf.reshape(z, [8, -1]), 5).values,
    "where_equal_max": lambda z: tf.where(z == tf.reduce_max(z, axis=-1, keepdims=True), z, 0.0),
    "norm_inf": lambda z: tf.norm(tf.reshape(z, [8, -1]), ord=np.inf, axis=1),
}


@pytest.mark.parametrize("name", sorted(_COMPARED))
def test_gradients_that_compare_a_fused_input_with_its_own_reduction(name):
    # The audit of session 8 (the MaxPool/reduce_max bug of session 7, fixed
    # with an optimization barrier): each op whose gradient compares its input
    # with a value derived from it, fed by a convolution + batch normalization,
    # differentiated with respect to the input and the kernel, on several
    # inputs (which windows/rows lose their maximum depends on the data: with
    # the barrier removed, reduce_max and reduce_min fail on the first inputs
    # with jax 0.12)
    op = _COMPARED[name]

    def f(x, k):
        with tf.GradientTape() as t:
            t.watch([x, k])
            y = op(_conv_bn(x, k))
            loss = tf.reduce_sum(y * tf.reshape(tf.constant(_W.reshape(-1)[: int(np.prod(y.shape))]), tf.shape(y)))
        return t.gradient(loss, [x, k])

    ref, xla = tf.function(f), tf.function(f, jit_compile=True)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        args = (tf.constant(rng.normal(size=(8, 6, 6, 2)).astype(np.float32)),
                tf.constant(rng.normal(size=(3, 3, 2, 3)).astype(np.float32) * 0.3))
        for g, w in zip(xla(*args), ref(*args)):
            scale = float(np.max(np.abs(w.numpy())))
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=0, atol=1e-4 * scale, err_msg=f"input {seed}")


def test_gradient_of_reduce_max_over_axes_known_when_running():
    # MaxDyn (axes a tensor of a None-shaped signature): its gradient compares too
    def f(x, k):
        with tf.GradientTape() as t:
            t.watch(k)
            z = _conv_bn(x, k)
            y = tf.reduce_max(z, axis=tf.range(1, 3) + tf.shape(z)[0] * 0)
            loss = tf.reduce_sum(y * tf.cast(tf.reshape(tf.range(tf.size(y)), tf.shape(y)), tf.float32))
        return t.gradient(loss, k)

    sig = [tf.TensorSpec([None, 6, 6, 2]), tf.TensorSpec([3, 3, 2, 3])]
    for seed in range(3):
        rng = np.random.default_rng(seed)
        both(f, tf.constant(rng.normal(size=(8, 6, 6, 2)).astype(np.float32)),
             tf.constant(rng.normal(size=(3, 3, 2, 3)).astype(np.float32) * 0.3), input_signature=sig, rtol=1e-4)


def _param_draws(seed, lam, alpha, beta, counts, probs):
    return (tf.random.stateless_poisson([3, 4], seed, lam),
            tf.random.stateless_gamma([2, 4], seed, alpha, beta),
            tf.random.stateless_binomial([5], seed, counts, probs),
            tf.random.stateless_poisson([2], seed, 3.0, dtype=tf.float32),
            tf.random.stateless_gamma([3], seed, 0.5, dtype=tf.float64))


def test_stateless_poisson_gamma_binomial_agree_eagerly_staged_and_compiled():
    args = (tf.constant([1, 2], tf.int64), tf.constant([0.5, 1.0, 4.0, 20.0]), tf.constant([[1.0], [3.0]]),
            tf.constant(2.0), tf.constant([10.0, 10, 5, 5, 1]), tf.constant(0.3))
    eager = _param_draws(*args)
    for got in (tf.function(_param_draws)(*args), tf.function(_param_draws, jit_compile=True)(*args)):
        for e, g in zip(eager, got):
            assert e.dtype == g.dtype and e.shape == g.shape
            np.testing.assert_array_equal(g.numpy(), e.numpy())
    assert [t.dtype for t in eager] == [tf.int32, tf.float32, tf.int32, tf.float32, tf.float64]
    other = _param_draws(tf.constant([1, 3], tf.int64), *args[1:])
    assert not np.array_equal(other[0].numpy(), eager[0].numpy())  # a function of the seed
    # the distributions: means and variances of many draws
    p = tf.random.stateless_poisson([40000], [3, 4], 4.5).numpy()
    assert abs(p.mean() - 4.5) < 0.05 and abs(p.var() - 4.5) < 0.15
    g = tf.random.stateless_gamma([40000], [3, 4], 2.0, 4.0).numpy()  # mean alpha / beta, variance alpha / beta**2
    assert abs(g.mean() - 0.5) < 0.01 and abs(g.var() - 0.125) < 0.01
    b = tf.random.stateless_binomial([40000], [3, 4], 10, 0.3).numpy()
    assert abs(b.mean() - 3.0) < 0.03 and abs(b.var() - 2.1) < 0.08 and b.min() >= 0 and b.max() <= 10
    with pytest.raises(tf.errors.InvalidArgumentError, match="rightmost dimensions"):
        tf.random.stateless_poisson([3, 4], [1, 2], tf.constant([1.0, 2.0, 3.0]))


def test_generator_binomial_advances_its_state_in_compiled_functions_too():
    def draws(gen):
        return [gen.binomial([4], [5.0, 6.0, 7.0, 8.0], 0.5).numpy() for _ in range(3)]

    want = draws(tf.random.Generator.from_seed(7))
    assert not np.array_equal(want[0], want[1])
    gen = tf.random.Generator.from_seed(7)
    for jit in (False, True):
        gen.reset_from_seed(7)
        step = tf.function(lambda: gen.binomial([4], [5.0, 6.0, 7.0, 8.0], 0.5), jit_compile=jit)
        for w in want:
            np.testing.assert_array_equal(step().numpy(), w)

"""AutoGraph for JAX (autograph_cli.jax): converted control flow under jax.jit,
jax.grad and jax.vmap, differential against plain Python."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

import autograph_cli.jax as agj  # noqa: E402
from autograph_cli.jax._backend import StagedLoopError  # noqa: E402


# ------------------------------------------------------------ programs
def collatz(x):
    n = 0
    while x != 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        n += 1
    return n


def collatz_ternary(x):
    n = 0
    while x != 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        n += 1
    return n


def fizzbuzz_count(n):
    fizz = buzz = both = 0
    for i in range(1, n + 1):
        if i % 15 == 0:
            both += 1
        elif i % 3 == 0:
            fizz += 1
        elif i % 5 == 0:
            buzz += 1
    return fizz, buzz, both


def first_index(xs, target):
    for i in range(len(xs)):
        if xs[i] == target:
            return i
    return -1


def break_continue(xs, n):
    total = 0
    for i in range(n):
        if xs[i] < 0:
            continue
        if xs[i] > 10:
            break
        if xs[i] == 7:
            return i * 100
        total += xs[i]
    return total


def while_break(x):
    i = 0
    while i < 100:
        i += 1
        if i * i > x:
            break
    return i


def nested_if_in_for(xs):
    pos = neg = 0.0
    for v in xs:
        if v > 0:
            if v > 2 and v < 5:
                pos += 2 * v
            else:
                pos += v
        else:
            neg = neg - v if v < -1 or v == 0 else neg
    return pos, neg


def accumulate(x, n):
    acc = []
    for i in range(n):
        acc.append(x * i + 1)
    return jnp.stack(acc)


def accumulate_rows(m):
    rows = [m[0] * 0]
    for row in m:
        rows.append(row * 2)
    return jnp.stack(rows)


def and_or(a, b):
    if (a > 0 and b > 0) or not a < -5:
        return a + b
    return a - b


CASES = [
    (collatz, [(27,), (1,), (6,)], {}),
    (collatz_ternary, [(27,), (97,)], {}),
    (fizzbuzz_count, [(30,), (7,), (0,)], {}),
    (first_index, [(np.array([3, 1, 4, 1, 5]), 4), (np.array([3, 1, 4, 1, 5]), 9)], {}),
    (break_continue, [(np.array([1, -2, 3, 4, 11, 5]), 6), (np.array([1, 7, 3]), 3), (np.array([2, 2]), 0)], {}),
    (while_break, [(50,), (0,), (10_000,)], {}),
    (nested_if_in_for, [(np.array([1.0, -2.0, 3.0, 0.0, 4.5, -0.5]),)], {}),
    (and_or, [(1, 2), (-1, 2), (-7, 2), (3, -9)], {}),
]


def _py(v):
    if isinstance(v, (tuple, list)):
        return tuple(_py(x) for x in v)
    return np.asarray(v).tolist()


@pytest.mark.parametrize("fn, inputs, kw", CASES, ids=[c[0].__name__ for c in CASES])
def test_jit_equals_python(fn, inputs, kw):
    jitted = agj.jit(fn, **kw)
    for args in inputs:
        expected = fn(*[a.tolist() if isinstance(a, np.ndarray) and fn is not nested_if_in_for else a
                        for a in args])
        got = jitted(*[jnp.asarray(a) for a in args])
        np.testing.assert_allclose(_py(got), _py(expected), rtol=1e-6, err_msg=f"{fn.__name__}{args}")


def test_list_accumulation_stacks():
    got = agj.jit(accumulate, static_argnums=1)(2.0, 4)
    np.testing.assert_allclose(got, [1.0, 3.0, 5.0, 7.0])
    m = jnp.arange(6.0).reshape(3, 2)
    np.testing.assert_allclose(agj.jit(accumulate_rows)(m), np.concatenate([np.zeros((1, 2)), 2 * np.asarray(m)]))


def test_jit_as_a_decorator():
    @agj.jit
    def relu(x):
        return x if x > 0 else 0.0 * x

    @agj.jit(static_argnums=1)
    def power(x, n):
        y = 1.0
        for _ in range(n):
            y = y * x
        return y

    assert float(relu(-2.0)) == 0.0 and float(relu(3.0)) == 3.0
    assert float(power(2.0, 5)) == 32.0


def test_python_values_stay_python():
    calls = []

    def f(x, n):
        for i in range(n):  # a Python int: unrolled
            calls.append(i)
            x = x + i
        return x

    assert float(agj.jit(f, static_argnums=1)(1.0, 3)) == 4.0
    assert calls == [0, 1, 2]
    # outside any trace the converted function is plain Python
    assert agj.convert(collatz)(27) == 111


def test_grad_through_fori_and_cond():
    def f(x):
        y = 0.0
        for i in range(4):
            if x * i > 1.0:
                y = y + x * x
            else:
                y = y + x
        return y

    g = jax.grad(agj.convert(f))
    for x in (0.1, 0.4, 2.0):
        h = 1e-3
        num = (f(x + h) - f(x - h)) / (2 * h)
        np.testing.assert_allclose(float(g(x)), num, rtol=1e-2)
    np.testing.assert_allclose(float(jax.jit(g)(2.0)), 13.0, rtol=1e-6)


def test_grad_over_array_loop():
    def loss(w, xs):
        total = 0.0
        for x in xs:
            total += jnp.tanh(w * x) ** 2
        return total

    xs = jnp.linspace(-1.0, 1.0, 5)
    got = jax.grad(agj.convert(loss))(0.7, xs)
    want = jax.grad(lambda w: jnp.sum(jnp.tanh(w * xs) ** 2))(0.7)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_grad_through_while_loop_is_an_error():
    def f(x):
        while x < 10.0:
            x = x * 2.0
        return x

    with pytest.raises(Exception, match="Reverse-mode differentiation does not work for lax.while_loop"):
        jax.jit(jax.grad(agj.convert(f)))(1.0)


def test_vmap():
    got = jax.vmap(agj.convert(collatz))(jnp.array([1, 6, 7, 27]))
    assert got.tolist() == [collatz(v) for v in (1, 6, 7, 27)]
    got = jax.jit(jax.vmap(agj.convert(while_break)))(jnp.array([0, 50, 99]))
    assert got.tolist() == [while_break(v) for v in (0, 50, 99)]


def test_python_number_promotes_to_body_dtype():
    def f(xs):
        s = 0
        for v in xs:
            s += v
        return s

    assert float(agj.jit(f)(jnp.array([0.5, 0.25]))) == 0.75


# ------------------------------------------------------------- errors
def test_dtype_change_names_variable_and_line():
    def f(x):
        y = jnp.int32(0)
        while x > 0:
            y = y + 0.5
            x = x - 1
        return y

    with pytest.raises(StagedLoopError, match=r"test_jax\.py:\d+: 'y' has dtype int32 .* float32"):
        agj.jit(f)(3)


def test_shape_change_names_variable():
    def f(x, n):
        y = jnp.zeros(2)
        for i in range(n):
            y = jnp.concatenate([y, y])
        return y

    with pytest.raises(StagedLoopError, match=r"test_jax\.py:\d+: 'y' has shape \(2,\) before an iteration .* shape \(4,\)"):
        agj.jit(f)(1.0, 3)


def test_defined_in_one_branch():
    def f(x):
        if x > 0:
            y = x + 1
        return y

    with pytest.raises(StagedLoopError, match=r"test_jax\.py:\d+: 'y' must also be initialized in the else branch"):
        agj.jit(f)(1.0)


def test_loop_created_variable():
    def f(x, n):
        for i in range(n):
            last = x * i
        return last

    with pytest.raises(StagedLoopError, match=r"'last' is first assigned inside a staged loop"):
        agj.jit(f)(1.0, 3)


def test_conditional_append_is_an_error():
    def f(xs):
        acc = []
        for v in xs:
            if v > 0:
                acc.append(v)
        return acc

    with pytest.raises(StagedLoopError, match="appended to under a staged condition"):
        agj.jit(f)(jnp.arange(3.0))


# -------------------------------------------------------------- extras
def test_core_import_does_not_import_jax():
    code = "import sys, autograph_cli, autograph_cli.operators; assert 'jax' not in sys.modules, 'jax imported'"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=os.path.dirname(os.path.dirname(__file__)))


def test_multi_device_data_parallel(tmp_path):
    """A converted training step with staged control flow, data-parallel over
    4 host devices: the same result as on one device."""
    script = textwrap.dedent(
        """
        import os
        os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
        import jax, jax.numpy as jnp, numpy as np
        from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
        import autograph_cli.jax as agj

        def loss(w, xs, ys):
            total = 0.0
            for i in range(xs.shape[0]):
                err = jnp.dot(xs[i], w) - ys[i]
                if jnp.abs(err) > 1.0:
                    total += jnp.abs(err) - 0.5  # huber
                else:
                    total += 0.5 * err * err
            return total / xs.shape[0]

        def step(w, xs, ys):
            g = jax.grad(agj.convert(loss))(w, xs, ys)
            return w - 0.1 * g

        assert len(jax.devices()) == 4, jax.devices()
        rng = np.random.default_rng(0)
        xs = jnp.asarray(rng.normal(size=(32, 3)), jnp.float32)
        ys = jnp.asarray(rng.normal(size=(32,)) * 3, jnp.float32)
        w = jnp.zeros(3)

        single = jax.jit(step)(w, xs, ys)

        mesh = Mesh(np.array(jax.devices()), ("batch",))
        xs_s = jax.device_put(xs, NamedSharding(mesh, P("batch")))
        ys_s = jax.device_put(ys, NamedSharding(mesh, P("batch")))
        assert len(xs_s.sharding.device_set) == 4
        # the same step, the batch split over the 4 devices (XLA partitions it)
        multi = jax.jit(step)(w, xs_s, ys_s)
        # and per-example losses under vmap, data-parallel
        per_example = jax.jit(jax.vmap(agj.convert(loss), in_axes=(None, 0, 0)))
        a = per_example(w, xs_s[:, None, :], ys_s[:, None])
        b = jax.vmap(agj.convert(loss), in_axes=(None, 0, 0))(w, xs[:, None, :], ys[:, None])
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
        np.testing.assert_allclose(np.asarray(multi), np.asarray(single), rtol=1e-5, atol=1e-6)
        print("OK", np.asarray(multi))
        """
    )
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4")
    path = tmp_path / "multi_device.py"
    path.write_text(script)
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env,
                       cwd=os.path.dirname(os.path.dirname(__file__)))
    assert r.returncode == 0, r.stderr[-3000:]
    assert "OK" in r.stdout


def test_autograph_run_converts_jax_programs(tmp_path):
    """`autograph run` (the import hook) on a JAX program: its functions are
    converted, and agj.jit / agj.convert stage their control flow."""
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent(
        """
        import jax, jax.numpy as jnp
        import autograph_cli.jax as agj

        def helper(x):
            if x > 3:
                return x * 2
            return x - 1

        def collatz(x):
            n = 0
            while x != 1:
                x = x // 2 if x % 2 == 0 else 3 * x + 1
                n += 1
            return n + helper(n)

        def f(x):
            y = 0.0
            for v in x:
                if v > 1:
                    y += v * v
            return y

        print(int(agj.jit(collatz)(jnp.int32(27))), collatz(27))
        print(jax.grad(agj.convert(f))(jnp.arange(4.0)).tolist())
        # unchanged JAX code: the hook converted the functions, the backend notices jax's trace
        print(int(jax.jit(collatz)(jnp.int32(27))), jax.grad(f)(jnp.arange(4.0)).tolist())
        """))
    r = subprocess.run([sys.executable, "-m", "autograph_cli", "run", str(prog)], capture_output=True, text=True,
                       cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split("\n")[:3] == ["333 333", "[0.0, 0.0, 4.0, 6.0]", "333 [0.0, 0.0, 4.0, 6.0]"], r.stdout


# ------------------------------------- to_graph results under JAX directly
def _to_graph(fn):
    import autograph_cli

    return autograph_cli.to_graph(fn)


def while_return(x):
    i = 0
    while i < 10:
        if i * i > x:
            return i * 10
        i += 1
    return -1


@pytest.mark.parametrize("fn, args", [
    (collatz, (27,)),
    (break_continue, (np.array([1, -2, 3, 4, 11, 5]), 6)),
    (while_return, (50,)),
    (nested_if_in_for, (np.array([1.0, -2.0, 3.0, 0.0, 4.5, -0.5]),)),
    (and_or, (-7, 2)),
])
def test_to_graph_result_under_jax_jit_directly(fn, args):
    """No agj wrapper: the converted function notices JAX's trace itself (the
    backend's trace probe) and stages its control flow."""
    got = jax.jit(_to_graph(fn))(*[jnp.asarray(a) for a in args])
    expected = fn(*[a.tolist() if isinstance(a, np.ndarray) and fn is not nested_if_in_for else a for a in args])
    np.testing.assert_allclose(_py(got), _py(expected), rtol=1e-6)


def test_to_graph_result_under_grad_and_vmap_directly():
    def f(x):
        y = 0.0
        for i in range(4):
            if x * i > 1.0:
                y = y + x * x
            else:
                y = y + x
        return y

    g = _to_graph(f)
    assert float(jax.grad(g)(2.0)) == 13.0  # 1 + 3 * (2 * 2.0): the cond took each path at its i
    assert float(jax.grad(g)(0.1)) == 4.0
    assert jax.vmap(_to_graph(collatz))(jnp.array([1, 6, 7, 27])).tolist() == [0, 8, 16, 111]
    assert jax.jit(jax.vmap(jax.grad(g)))(jnp.array([0.1, 2.0])).tolist() == [4.0, 13.0]


def test_to_graph_result_outside_a_trace_is_python():
    from autograph_cli import operators

    calls = []

    def f(x):
        calls.append(type(x))
        if x > 0:
            return x
        return -x

    g = _to_graph(f)
    assert g(-3) == 3 and operators.fast  # the probe: no JAX trace active
    assert g(jnp.float32(-2.0)) == 2.0  # a concrete array outside a trace: Python's if
    assert float(jax.jit(g)(-2.0)) == 2.0


# ---------------------------------------------------- run-time checks
def positive_double(x):
    assert x > 0, "x must be positive"
    return x * 2


def _assert_line():
    import inspect

    return inspect.getsourcelines(positive_double)[1] + 1


def test_staged_assert_checked_when_the_compiled_code_runs():
    from autograph_cli.jax import StagedAssertionError

    f = agj.jit(positive_double)
    assert float(f(1.5)) == 3.0
    with pytest.raises(StagedAssertionError, match=rf"test_jax\.py:{_assert_line()}: Assertion failed: x must be "
                                                     "positive"):
        f(-1.0)
    assert float(f(2.0)) == 4.0  # the compiled code is fine afterwards
    # eagerly under grad the condition is concrete (Python's assert judges
    # it); under vmap it is batched: every element is checked
    with pytest.raises(AssertionError, match="x must be positive"):
        jax.grad(agj.convert(positive_double))(-1.0)
    with pytest.raises(StagedAssertionError, match="x must be positive"):
        jax.vmap(agj.convert(positive_double))(jnp.array([1.0, -1.0]))
    assert jax.vmap(agj.convert(positive_double))(jnp.array([1.0, 3.0])).tolist() == [2.0, 6.0]


def test_staged_assert_in_a_branch_checks_only_the_elements_taking_it():
    from autograph_cli.jax import StagedAssertionError

    def f(x):
        if x > 0:
            assert x < 10, "x must be below 10"
            y = x
        else:
            y = -x
        return y

    g = agj.convert(f)
    for run in (jax.vmap(g), jax.jit(jax.vmap(g))):
        assert run(jnp.array([1.0, -20.0, 5.0])).tolist() == [1.0, 20.0, 5.0]
    with pytest.raises(StagedAssertionError, match="x must be below 10"):
        jax.vmap(g)(jnp.array([1.0, 20.0]))


def test_staged_assert_under_plain_jax_jit_names_message_and_line():
    with pytest.raises(jax.errors.JaxRuntimeError, match=rf"test_jax\.py:{_assert_line()}: Assertion failed: x "
                                                          "must be positive"):
        jax.jit(_to_graph(positive_double))(-1.0)


def test_path_without_return_fails_when_it_runs():
    from autograph_cli.jax import StagedAssertionError

    def f(x):
        i = 0
        while i < 3:
            if x > i:
                return x * 1.0
            i += 1

    g = agj.jit(f)
    assert float(g(2.0)) == 2.0
    with pytest.raises(StagedAssertionError, match=r"'f' reached its end without a return statement"):
        g(-1.0)


def test_user_variables_named_like_generated_flags():
    def f(x):
        retval_ = 0
        do_return = 5
        if x > 0:
            retval_ = 1
            do_return = 7
        return retval_ + do_return

    def one_branch(x):
        if x > 0:
            do_return = x + 1
        return do_return

    g = agj.jit(f)
    assert int(g(1)) == 8 and int(g(-1)) == 5
    with pytest.raises(StagedLoopError, match=r"'do_return' must also be initialized in the else branch"):
        agj.jit(one_branch)(1.0)


# ----------------------------------------- both backends: builtins
def uses_builtins(xs, n):
    total = xs[0] * 0
    for i in range(n):
        total += float(i) * max(xs[0], xs[1]) + min(xs[0], xs[1])
    for j, v in enumerate(xs):
        total += abs(v) * float(j)
    return total + sum(xs) + len(xs) + float(n)


def test_builtins_dispatch_by_argument_type_with_numpy_and_jax_registered():
    """Both backends overload range, len, float, max, min, abs, enumerate,
    sum: each call goes to the backend whose value it has, whichever
    registered last."""
    import autograph_cli.tf as tf
    from autograph_cli.runtime import control_flow

    xs, n = [1.5, -2.0, 3.0], 4
    want = uses_builtins(xs, n)
    staged_tf = tf.function(uses_builtins)
    staged_jax = agj.jit(uses_builtins)
    try:
        for register_last in (control_flow.register, agj.register):
            register_last()
            got_tf = staged_tf(tf.constant(xs), tf.constant(n))
            got_jax = staged_jax(jnp.asarray(xs), jnp.int32(n))
            np.testing.assert_allclose(float(got_tf.numpy()), want, rtol=1e-6)
            np.testing.assert_allclose(float(got_jax), want, rtol=1e-6)
            assert _to_graph(uses_builtins)(xs, n) == want
            staged_tf = tf.function(uses_builtins)  # traced again under the other order
            staged_jax = agj.jit(uses_builtins)
    finally:
        agj.register()


def test_to_graph_and_the_hook_stage_under_jax_without_importing_the_adapter(tmp_path):
    # A JAX user converts with to_graph (or the import hook) and calls
    # jax.jit / jax.grad directly, never importing autograph_cli.jax: the
    # backend registers itself because JAX is loaded.
    (tmp_path / "mod.py").write_text(
        "def f(x):\n"
        "    if x > 0:\n"
        "        y = x * 2.0\n"
        "    else:\n"
        "        y = -x\n"
        "    while y < 10.0:\n"
        "        y = y * 3.0\n"
        "    return y\n"
    )
    (tmp_path / "main.py").write_text(
        "import sys\n"
        "import jax, jax.numpy as jnp\n"
        "import autograph_cli\n"
        "autograph_cli.install_import_hook(['mod'])\n"
        "import mod\n"
        "g = autograph_cli.to_graph(mod.f)\n"
        "print(float(jax.jit(g)(jnp.float32(2.0))), float(jax.jit(g)(jnp.float32(-1.5))))\n"
        "print(float(jax.jit(mod.f)(jnp.float32(2.0))))\n"
        "print(float(jax.grad(g)(jnp.float32(2.0))))\n"
    )
    r = subprocess.run([sys.executable, str(tmp_path / "main.py")], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["12.0", "13.5", "12.0", "6.0"]


def _dict_item_written_then_rebound(a):
    d = {"k": a % 3, "m": 2}
    if a > 0:
        d["m"] = 7  # the dict the else branch starts from must keep m = 2
        d = {"k": 1, "m": d["m"] + 1}
    return d["k"], d["m"]


def test_dict_item_written_then_rebound_in_a_branch():
    staged = agj.jit(_dict_item_written_then_rebound)
    for a in (3, -4, 0):
        got = tuple(int(v) for v in staged(np.int32(a)))
        assert got == _dict_item_written_then_rebound(a), a


def _return_in_loop_over_array(v, a):
    x = a
    for e in v:
        if x < 3:
            return x
        x = x - e
    return x + 100


def test_a_loop_with_a_return_over_an_empty_array():
    """The body of a staged loop over zero items is traced all the same: an
    index into the empty axis was JAX's IndexError."""
    f = agj.jit(_return_in_loop_over_array)
    for vec in ([], [1, 2], [1, 1, 1]):
        assert int(f(np.array(vec, np.int32), np.int32(5))) == _return_in_loop_over_array(vec, 5), vec

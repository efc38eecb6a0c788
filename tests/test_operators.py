"""The ag__ operators: exact Python semantics on Python values, and dispatch
of staged values to a registered backend (shown with a small fake backend
that stages by running both branches / recording loops)."""
from __future__ import annotations

import types

import pytest

import converters
from autograph_cli import api, operators
from autograph_cli.operators import UNDEFINED


class Sym:
    """A fake staged value: a name and a Python value to fall back on."""

    def __init__(self, label, value=None):
        self.label = label
        self.value = value

    def __repr__(self):
        return f"Sym({self.label})"

    def __add__(self, other):
        return Sym(f"{self.label}+")

    __radd__ = __mul__ = __rmul__ = __add__


class FakeBackend:
    def __init__(self):
        self.calls = []

    def if_stmt(self, cond, body, orelse, state):
        before = state.get()
        body()
        after_true = state.get()
        state.set(before)
        if orelse is not None:
            orelse()
        after_false = state.get()
        self.calls.append(("if", cond.label, state.names, before, after_true, after_false, state.location))
        state.set(tuple(Sym(f"cond({n})") for n in state.names))

    def while_stmt(self, test, body, state, opts, first_cond):
        self.calls.append(("while", first_cond.label, state.names, state.get(), state.location))
        body()  # trace the body once
        state.set(tuple(Sym(f"loop({n})") for n in state.names))

    def for_stmt(self, iterable, extra_test, body, state, opts):
        self.calls.append(("for", iterable.label, state.names, state.get(), extra_test is not None))
        body(Sym("item"))
        state.set(tuple(Sym(f"loop({n})") for n in state.names))

    def if_exp(self, cond, t, f):
        return Sym(f"select({cond.label})")

    def and_(self, value, rest):
        self.calls.append(("and", value.label, len(rest)))
        return Sym("and")

    def or_(self, value, rest):
        return Sym("or")

    def not_(self, value):
        return Sym(f"not({value.label})")

    def assert_stmt(self, cond, msg_fn, location):
        self.calls.append(("assert", cond.label, location[1]))
        return True

    def list_append(self, lst, value):
        return lst

    def list_pop(self, lst, index):
        return lst, Sym("popped")

    def check_returned(self, done, location):
        self.calls.append(("check_returned", done, location[1]))

    def builtin_overloads(self):
        def staged_range(*args):
            if any(isinstance(a, Sym) for a in args):
                return Sym("range")
            return range(*args)

        return {range: staged_range}


@pytest.fixture
def backend():
    b = FakeBackend()
    operators.register_backend(Sym, b)
    prev = operators.force_functional(True)
    try:
        yield b
    finally:
        operators.force_functional(prev)
        operators.unregister_backend(b)


def converted(source, name):
    result = converters.convert(source, filename="<test>")
    module = types.ModuleType("m")
    module.ag__ = operators
    exec(api.compile_result(result), module.__dict__)
    return getattr(module, name)


# -- Python semantics ------------------------------------------------------------


def test_and_or_short_circuit_and_return_deciding_operand():
    seen = []

    def f(v):
        seen.append(v)
        return v

    assert operators.and_(0, lambda: f(1)) == 0 and seen == []
    assert operators.and_(2, lambda: f(3), lambda: f(0), lambda: f(4)) == 0
    assert seen == [3, 0]
    assert operators.or_("", lambda: f([]), lambda: f("x")) == "x"
    assert operators.not_([]) is True


def test_truth_is_evaluated_once():
    class Counted:
        n = 0

        def __bool__(self):
            Counted.n += 1
            return True

    c = Counted()
    operators.if_stmt(c, lambda: None, None, ())
    assert Counted.n == 1


def test_for_stmt_does_not_advance_iterator_after_stop():
    produced = []

    def gen():
        for i in range(10):
            produced.append(i)
            yield i

    stop = []
    operators.for_stmt(gen(), lambda: not stop, lambda i: stop.append(i) if i == 2 else None, ())
    assert produced == [0, 1, 2]


def test_while_stmt_calls_test_before_each_iteration():
    log = []
    state = {"i": 0}

    def test():
        log.append("test")
        return state["i"] < 2

    def body():
        log.append("body")
        state["i"] += 1

    operators.while_stmt(test, body, ())
    assert log == ["test", "body", "test", "body", "test"]


def test_list_operators_keep_the_same_list():
    xs = [1]
    assert operators.list_append(xs, 2) is xs and xs == [1, 2]
    same, v = operators.list_pop(xs)
    assert same is xs and v == 2 and xs == [1]


def test_assert_stmt_returns_python_value_unchanged():
    marker = object()
    assert operators.assert_stmt(marker) is marker


def test_fast_flag_follows_trace_and_forcing():
    assert operators.fast
    operators.enter_trace()
    try:
        assert not operators.fast
    finally:
        operators.exit_trace()
    assert operators.fast
    prev = operators.force_functional(True)
    assert not operators.fast
    operators.force_functional(prev)
    assert operators.fast


def test_converted_leaves_builtins_and_stdlib_alone():
    import json

    assert operators.converted(json.dumps) is json.dumps
    assert operators.converted(sorted) is sorted
    # A backend may overload a builtin; on Python values it is the builtin.
    assert operators.converted(len)([1, 2]) == 2
    f = operators.do_not_convert(lambda x: x)
    assert operators.converted(f) is f


# -- dispatch to a backend ---------------------------------------------------------


def test_staged_if_gets_state_names_and_both_branches(backend):
    f = converted(
        "def f(c):\n"
        "    x = 1\n"
        "    if c:\n"
        "        x = 2\n"
        "        y = 3\n"
        "    else:\n"
        "        x = 4\n"
        "    return x\n",
        "f",
    )
    result = f(Sym("c"))
    (call,) = backend.calls
    kind, label, names, before, after_true, after_false, location = call
    # y is not live after the if: it is not part of the staged state.
    assert (kind, label, names) == ("if", "c", ("x",))
    assert before == (1,) and after_true == (2,) and after_false == (4,)
    assert location == ("<test>", 3)
    assert result.label == "cond(x)"


def test_undefined_before_if_reads_as_undefined(backend):
    f = converted(
        "def f(c):\n"
        "    if c:\n"
        "        x = 2\n"
        "    else:\n"
        "        x = 3\n"
        "    return x\n",
        "f",
    )
    f(Sym("c"))
    (call,) = backend.calls
    assert call[2] == ("x",) and call[3] == (UNDEFINED,)


def test_staged_while_receives_loop_vars_and_first_condition(backend):
    f = converted(
        "def f(n):\n"
        "    i = 0\n"
        "    total = 0\n"
        "    while i < n:\n"
        "        tmp = i * 2\n"
        "        total = total + tmp\n"
        "        i = i + 1\n"
        "    return total\n",
        "f",
    )

    class Bound:
        def __gt__(self, other):
            return Sym("i<n")

    f(Bound())
    kind, first, names, values, location = backend.calls[0]
    # tmp is written before it is read in the body and dead afterwards.
    assert (kind, first, names, values) == ("while", "i<n", ("i", "total"), (0, 0))
    assert location == ("<test>", 4)


def test_staged_for_with_break_carries_the_flag(backend):
    f = converted(
        "def f(n):\n"
        "    s = 0\n"
        "    for i in range(n):\n"
        "        if s > 10:\n"
        "            break\n"
        "        s = s + i\n"
        "    return s\n",
        "f",
    )
    f(Sym("n"))
    kind, label, names, values, has_extra = backend.calls[0]
    assert (kind, label, has_extra) == ("for", "range", True)
    assert names == ("break_3", "s") and values == (False, 0)


def test_staged_and_ternary_not_assert(backend):
    f = converted(
        "def f(a, b):\n"
        "    assert a\n"
        "    return (a and b, b if a else 0, not a)\n",
        "f",
    )
    conj, sel, neg = f(Sym("a"), 1)
    assert ("assert", "a", 2) in backend.calls and ("and", "a", 1) in backend.calls  # the user's line
    assert sel.label == "select(a)" and neg.label == "not(a)"


def test_python_loop_stopping_on_staged_value_raises_at_the_loop(backend):
    # a break or return that depends on a staged value cannot stop a Python
    # loop: TensorFlow's NotImplementedError (a TypeError too), raised from
    # the user's loop line, whichever backend staged the condition
    f = converted(
        "def f(c):\n"
        "    for i in [1, 2, 3]:\n"
        "        if c:\n"
        "            break\n"
        "    return i\n",
        "f",
    )
    with pytest.raises(operators.PythonLoopTensorError,
                       match=r"^<test>:2: break and return statements which depend on a TF condition are not "
                             r"supported in Python for loops: the `for` loop at line 2 iterates over a Python list") as e:
        f(Sym("c"))
    assert isinstance(e.value, NotImplementedError) and isinstance(e.value, TypeError)
    tb = e.value.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    assert (tb.tb_frame.f_code.co_filename, tb.tb_lineno) == ("<test>", 2)
    # the first iteration's `if` was staged; nothing else reached the backend
    assert [c[0] for c in backend.calls] == ["if"]

    g = converted(
        "def g(c, n):\n"
        "    while n > 0:\n"
        "        n -= 1\n"
        "        if c:\n"
        "            return n\n"
        "    return -1\n",
        "g",
    )
    with pytest.raises(NotImplementedError, match=r"^<test>:2: The condition of while loop started as non-Tensor, "
                                                  r"then changed to Tensor: the `while` loop at line 2"):
        g(Sym("c"), 3)
    assert g(Sym("c"), 0) == -1  # no iteration, no jump: Python's loop


class StagingFakeBackend(FakeBackend):
    def guarded_for(self, it, keep_going, extra_test, body, state):
        self.calls.append(("guarded_for", list(it), keep_going, state.names))


def test_a_loop_stager_backend_gets_the_rest_of_the_python_loop():
    # a backend with guarded_for (JAX) stages the rest instead of the error
    b = StagingFakeBackend()
    assert isinstance(b, operators.PythonLoopStager) and not isinstance(FakeBackend(), operators.PythonLoopStager)
    operators.register_backend(Sym, b)
    prev = operators.force_functional(True)
    try:
        f = converted(
            "def f(c):\n"
            "    for i in [1, 2, 3]:\n"
            "        if c:\n"
            "            break\n"
            "    return i\n",
            "f",
        )
        f(Sym("c"))
        guarded = [c for c in b.calls if c[0] == "guarded_for"]
        # the first iteration ran; the rest of the iterator goes to the backend
        assert len(guarded) == 1 and guarded[0][1] == [2, 3]
        assert "i" in guarded[0][3]
        g = converted(
            "def g(c, n):\n"
            "    while n > 0:\n"
            "        n -= 1\n"
            "        if c:\n"
            "            return n\n"
            "    return -1\n",
            "g",
        )
        b.calls.clear()
        g(Sym("c"), 3)
        # one Python iteration (its staged `if`, the staged test), then the loop
        assert [c[0] for c in b.calls][:3] == ["if", "and", "while"]
    finally:
        operators.force_functional(prev)
        operators.unregister_backend(b)


def test_builtin_overloads_reach_converted_calls(backend):
    assert operators.converted(range)(Sym("n")).label == "range"
    assert list(operators.converted(range)(3)) == [0, 1, 2]


def test_python_values_never_reach_the_backend(backend):
    f = converted(
        "def f(n):\n"
        "    out = []\n"
        "    for i in range(n):\n"
        "        if i % 2 and not i > 5:\n"
        "            out.append(i if i else -1)\n"
        "    return out\n",
        "f",
    )
    assert f(10) == [1, 3, 5]
    assert backend.calls == []


# -- contracts ---------------------------------------------------------------------


def _protocol_methods():
    import inspect

    return {name: inspect.signature(fn) for name, fn in vars(operators.Backend).items()
            if callable(fn) and not name.startswith("_")}


def _conforms(backend):
    """``backend`` is an operators.Backend and every method accepts the
    protocol's parameters, by position, as the operators pass them."""
    import inspect

    assert isinstance(backend, operators.Backend), type(backend)
    for name, sig in _protocol_methods().items():
        params = [p for p in sig.parameters.values() if p.name != "self"]
        bound = inspect.signature(getattr(backend, name))
        try:
            bound.bind(*[object()] * len(params))
        except TypeError as e:
            raise AssertionError(f"{type(backend).__name__}.{name}{bound} does not take {params}: {e}") from None


def test_the_protocol_lists_every_construct():
    assert set(_protocol_methods()) == {
        "if_stmt", "if_exp", "while_stmt", "for_stmt", "and_", "or_", "not_", "assert_stmt",
        "list_append", "list_pop", "check_returned", "builtin_overloads"}


def test_numpy_runtime_and_jax_backends_implement_the_protocol():
    from autograph_cli.runtime import control_flow

    _conforms(control_flow.BACKEND)
    assert not isinstance(control_flow.BACKEND, operators.TraceProbe)  # it enters its traces itself
    jax_backend = pytest.importorskip("autograph_cli.jax").BACKEND
    _conforms(jax_backend)
    assert isinstance(jax_backend, operators.TraceProbe)
    # JAX stages the rest of a Python loop that came to break on a traced
    # value; the numpy runtime raises TensorFlow's error there
    assert isinstance(jax_backend, operators.PythonLoopStager)
    assert not isinstance(control_flow.BACKEND, operators.PythonLoopStager)
    _conforms(FakeBackend())


def test_converter_constants_agree_with_the_operators():
    """The converter (which imports nothing from autograph_cli) writes the
    names the operators read: checked on its output, lazy mode included."""
    import zlib

    source = "class K:\n    def f(self, x):\n        if x > 0:\n            x = 1\n        return x\n"
    code = converters.convert(source, fast_path=True, lazy=True).code
    assert f"if not {operators.AG_NAME}.fast:" in code
    assert f"{operators.AG_NAME}.functional('K.f@2')" in code
    module: dict = {}
    exec(code.split("\nclass K")[0], module)
    packed = zlib.decompress(module[operators.FUNCTIONAL_ATTR]).decode("utf-8")
    assert f"def {operators.functional_name('K.f@2')}(" in packed
    assert operators.functional_name("K.f@2").startswith(operators.FUNCTIONAL_PREFIX)


def test_operators_and_runtime_do_not_import_the_api(tmp_path):
    """The converter reaches the operators through set_converter: importing
    the operators and the runtime loads no api, and a trace that needs a
    conversion loads it through the package's front door."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import autograph_cli.operators\n"
        "from autograph_cli.runtime.function import function\n"
        "from autograph_cli.runtime.tensor import convert_to_tensor as c\n"
        "assert 'autograph_cli.api' not in sys.modules, 'api imported'\n"
        "def f(x):\n"
        "    if x > 0:\n"
        "        x = x * 2\n"
        "    return x\n"
        "g = function(f)\n"
        "print(g(c(3)).numpy(), g(c(-3)).numpy(), 'autograph_cli.api' in sys.modules)\n"
    )
    script = tmp_path / "prog.py"
    script.write_text(code)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["6", "-3", "True"]


def test_fast_is_a_plain_bool_unless_a_backend_probes_for_traces():
    class Probing(FakeBackend):
        active = False

        def if_stmt(self, cond, body, orelse, state):
            self.calls.append(("if", cond.label))
            state.set(tuple(Sym(f"cond({n})") for n in state.names))

        def trace_active(self):
            return self.active

    import sys

    jax_backend = sys.modules.get("autograph_cli.jax")  # a probing backend an earlier test registered
    if jax_backend is not None:
        jax_backend.unregister()
    assert operators.fast is True
    b = Probing()
    operators.register_backend(Sym, b)
    try:
        assert operators.fast and operators.fast is not True
        b.active = True
        assert not operators.fast
        module = types.ModuleType("m")
        module.ag__ = operators
        result = converters.convert("def g(x):\n    if x:\n        y = 1\n    else:\n        y = 2\n    return y\n",
                                    filename="<test>", fast_path=True)
        assert "ag__.fast" in result.code
        exec(api.compile_result(result), module.__dict__)
        assert module.g(Sym("x")).label == "cond(y)" and b.calls[0][:2] == ("if", "x")  # the probe saw a trace
        b.active = False
        assert module.g(0) == 2 and len(b.calls) == 1
        assert module.g(Sym("x")) == 1 and len(b.calls) == 1  # no trace: the user's own `if` (a Sym is truthy)
        operators.enter_trace()
        try:
            assert operators.fast is False
        finally:
            operators.exit_trace()
    finally:
        operators.unregister_backend(b)
        assert operators.fast is True
        if jax_backend is not None:
            jax_backend.register()


def test_builtin_overloads_compose_by_argument_type():
    class Other:
        pass

    class OtherBackend(FakeBackend):
        def builtin_overloads(self):
            return {range: lambda *a: "other-range", len: lambda x: "other-len"}

    first, second = FakeBackend(), OtherBackend()
    operators.register_backend(Sym, first)
    operators.register_backend(Other, second)
    try:
        r = operators.converted(range)
        assert r(Sym("n")).label == "range" and r(Other()) == "other-range" and r(3) == range(3)
        assert r(2, Other()) == "other-range"
        assert operators.converted(len)(Other()) == "other-len"  # only one backend overloads len
    finally:
        operators.unregister_backend(second)
        operators.unregister_backend(first)
    with pytest.raises(TypeError):
        operators.converted(range)(Other())  # unregistered: Python's range again


def test_user_variables_named_like_generated_flags_are_ordinary_names():
    """The converter's return flags reach the backends as markers, never by
    name: a user's `retval_` / `do_return` defined in one branch of a
    staged `if` is the seeds' error, as any other name."""
    import autograph_cli.tf as tf

    def one_branch(x):
        if x > 0:
            retval_ = x + 1
        return retval_

    def flag(x):
        do_return = 0
        if x > 0:
            do_return = x + 1
        return do_return

    with pytest.raises(ValueError, match=r"'retval_' must also be initialized in the else branch"):
        tf.function(one_branch)(tf.constant(1))
    assert tf.function(flag)(tf.constant(2)).numpy() == 3 and tf.function(flag)(tf.constant(-2)).numpy() == 0

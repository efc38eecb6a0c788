"""Golden tests of ``autograph to-code`` over samples/, and the safety net
around them: the output parses, converting it again changes nothing, the
conversion is deterministic across processes, and every converted sample
gives the original's results, exceptions and printed output on plain Python
values.

``tests/golden/<sample>.py.out`` holds what ``autograph to-code
samples/<sample>.py`` prints when piped (the functional form), and
``tests/golden/<sample>.run.out`` what ``python samples/<sample>.py`` prints
(the seed example run through tf.function on the graph runtime). After an
intended change to the converted form, regenerate the files with

    AUTOGRAPH_UPDATE_GOLDEN=1 pytest tests/test_golden.py

then read ``git diff tests/golden`` before committing: a golden is only as
good as the review it got.

The samples import ``autograph_cli.tf``; for the plain-Python comparisons
they are loaded with a small pure Python/numpy stand-in for it (``PY_TF``
below), so that these tests exercise the converter and the operators on
plain values only, independently of the graph runtime.
"""
from __future__ import annotations

import ast
import builtins
import contextlib
import io
import json
import operator
import os
import runpy
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from converters import convert

ROOT = Path(__file__).resolve().parent.parent
SAMPLES_DIR = ROOT / "samples"
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("AUTOGRAPH_UPDATE_GOLDEN", "") not in ("", "0")

SAMPLES = sorted(p.stem for p in SAMPLES_DIR.glob("*.py"))


def sample_source(name: str) -> str:
    return (SAMPLES_DIR / f"{name}.py").read_text()


def sample_filename(name: str) -> str:
    # Relative, as a user types it from the repository root.
    return f"samples/{name}.py"


def to_code(name: str) -> str:
    return convert(sample_source(name), filename=sample_filename(name), fast_path=False).code


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.py.out"


# --------------------------------------------------------------------------
# golden files


@pytest.mark.parametrize("name", SAMPLES)
def test_to_code_matches_golden(name):
    code = to_code(name)
    path = golden_path(name)
    if UPDATE:
        GOLDEN_DIR.mkdir(exist_ok=True)
        if not path.exists() or path.read_text() != code:
            path.write_text(code)
    assert path.exists(), f"no golden for {name}: run with AUTOGRAPH_UPDATE_GOLDEN=1"
    assert code == path.read_text()


def test_every_golden_has_a_sample():
    stale = sorted(
        p.name for p in GOLDEN_DIR.iterdir()
        if p.name.split(".")[0] not in SAMPLES
        or p.name.endswith(".run.out") and p.name.split(".")[0] in RANDOM_SAMPLES
    )
    assert not stale, f"golden files without a sample: {stale}"


#: Samples whose __main__ prints tf.random values: checked to run, not compared.
RANDOM_SAMPLES = {"tanh_loop", "dynamic_rnn"}


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_script_prints_the_golden(name):
    """`python samples/<name>.py` runs its seed example through tf.function
    on the graph runtime; what it prints is kept in <name>.run.out (for
    fizzbuzz, say: each Python print once while tracing, tf.print on every
    iteration, no retrace for the second call)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(SAMPLES_DIR / f"{name}.py"), run_name="__main__")
    # Messages name the sample by absolute path: keep goldens checkout-independent.
    printed = out.getvalue().replace(str(SAMPLES_DIR) + os.sep, "samples/")
    assert printed
    if name in RANDOM_SAMPLES:
        return
    path = GOLDEN_DIR / f"{name}.run.out"
    if UPDATE and (not path.exists() or path.read_text() != printed):
        path.write_text(printed)
    assert path.exists(), f"no golden for {name}: run with AUTOGRAPH_UPDATE_GOLDEN=1"
    assert printed == path.read_text()


@pytest.mark.parametrize("name", SAMPLES)
def test_cli_to_code_prints_the_golden(name, monkeypatch):
    """`autograph to-code samples/<name>.py`, output not a terminal."""
    from click.testing import CliRunner

    from autograph_cli.cli import cli

    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["to-code", sample_filename(name)])
    assert result.exit_code == 0, result.output
    assert result.output == golden_path(name).read_text()


@pytest.mark.parametrize(
    "name,function",
    [(n, f.name) for n in SAMPLES for f in ast.parse((SAMPLES_DIR / f"{n}.py").read_text()).body
     if isinstance(f, ast.FunctionDef)],
)
def test_cli_to_code_function_is_its_part_of_the_golden(name, function, monkeypatch):
    """`--function NAME` prints exactly that function's part of the module."""
    from click.testing import CliRunner

    from autograph_cli.cli import cli

    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["to-code", sample_filename(name), "--function", function])
    assert result.exit_code == 0, result.output
    assert f"\ndef {function}(" in "\n" + result.output
    assert "\n" + result.output.rstrip("\n") + "\n" in golden_path(name).read_text()


def test_console_script_to_code_piped_prints_the_golden():
    """The installed command itself, piped, as the README shows it."""
    proc = subprocess.run(
        [sys.executable, "-m", "autograph_cli", "to-code", sample_filename("collatz")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if k != "NO_COLOR"},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == golden_path("collatz").read_text()
    assert "\x1b[" not in proc.stdout


# --------------------------------------------------------------------------
# safety net: parses, stable, deterministic


@pytest.mark.parametrize("fast_path", [False, True], ids=["functional", "dual"])
@pytest.mark.parametrize("name", SAMPLES)
def test_output_parses_and_compiles(name, fast_path):
    code = convert(sample_source(name), filename=sample_filename(name), fast_path=fast_path).code
    tree = ast.parse(code)
    compile(tree, sample_filename(name), "exec")


@pytest.mark.parametrize("fast_path", [False, True], ids=["functional", "dual"])
@pytest.mark.parametrize("name", SAMPLES)
def test_converting_converted_code_is_stable(name, fast_path):
    once = convert(sample_source(name), filename=sample_filename(name), fast_path=fast_path).code
    twice = convert(once, filename=sample_filename(name), fast_path=fast_path).code
    assert twice == once


_DETERMINISM_SCRIPT = """
import json, sys
from pathlib import Path
from converters import convert
out = {}
for name in sys.argv[1:]:
    src = Path("samples", name + ".py").read_text()
    for fast_path in (False, True):
        out[name + ":" + str(fast_path)] = convert(
            src, filename="samples/" + name + ".py", fast_path=fast_path).code
print(json.dumps(out))
"""


def test_conversion_is_deterministic_across_processes():
    """Same input, same output, whatever the string hash seed."""
    runs = []
    for seed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run(
            [sys.executable, "-c", _DETERMINISM_SCRIPT, *SAMPLES],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout))
    here = {
        f"{name}:{fp}": convert(sample_source(name), filename=sample_filename(name), fast_path=fp).code
        for name in SAMPLES
        for fp in (False, True)
    }
    assert runs[0] == runs[1] == here


# --------------------------------------------------------------------------
# converted samples on plain Python values equal the originals


class _PyTensorArray:
    """A functional, list-backed TensorArray: write returns a new array."""

    def __init__(self, dtype, size=0, **_):
        self.dtype = dtype
        self._items = [None] * int(size)

    def write(self, index, value):
        new = _PyTensorArray(self.dtype, 0)
        new._items = list(self._items)
        new._items[int(index)] = value
        return new

    def stack(self):
        return np.stack(self._items).astype(self.dtype)


def _constant(value, dtype=None):
    return value


def _dropout(x, rate):
    # Deterministic stand-in: the samples only need a value-preserving shape.
    return x * (1 - rate)


#: The names the samples use from ``autograph_cli.tf``, on plain values.
PY_TF = types.SimpleNamespace(
    range=range,
    data=types.SimpleNamespace(Dataset=types.SimpleNamespace(range=range)),
    nn=types.SimpleNamespace(dropout=_dropout),
    ones=np.ones,
    int32=np.int32,
    int64=np.int64,
    print=print,
    constant=_constant,
    equal=operator.eq,
    greater=operator.gt,
    reduce_sum=np.sum,
    tanh=np.tanh,
    size=len,
    transpose=np.transpose,
    TensorArray=_PyTensorArray,
    float32=np.float32,
    function=lambda fn: fn,
)


def load_sample(name: str) -> dict:
    """Execute samples/<name>.py as a module whose ``tf`` is PY_TF."""
    real_import = builtins.__import__

    def fake_import(modname, globals=None, locals=None, fromlist=(), level=0):
        if modname == "autograph_cli.tf" and level == 0:
            return types.SimpleNamespace(tf=PY_TF)
        return real_import(modname, globals, locals, fromlist, level)

    module = types.ModuleType(f"samples.{name}")
    module.__file__ = str(SAMPLES_DIR / f"{name}.py")
    module.__builtins__ = dict(vars(builtins), __import__=fake_import)
    exec(compile(sample_source(name), module.__file__, "exec"), module.__dict__)
    assert module.tf is PY_TF
    return module.__dict__


class IterOf:
    """Stands for a fresh one-shot iterator over ``items`` in every call."""

    def __init__(self, items):
        self.items = list(items)

    def __repr__(self):
        return f"iter({self.items!r})"


_rng = np.random.default_rng(0)
_rnn_inputs = [
    (None, _rng.random((2, 3, 4), dtype=np.float32), np.zeros((2, 4), np.float32)),
    (None, _rng.random((1, 5, 2), dtype=np.float32), np.ones((1, 2), np.float32)),
    (None, np.zeros((3, 0, 2), np.float32), np.zeros((3, 2), np.float32)),
]

#: (sample, function, argument tuples). ``None`` as the first argument of
#: dynamic_rnn stands for the sample's own rnn_step.
CASES = [
    ("fizzbuzz", "fizzbuzz", [(n,) for n in range(0, 21)] + [(None,)]),
    ("collatz", "collatz", [(n,) for n in range(1, 60)] + [(2**40 + 1,), (2.0,), ("x",)]),
    ("simple_relu", "simple_relu", [(x,) for x in (-3, -1, 0, 1, 7, -0.5, 2.5)] + [(None,)]),
    ("tanh_loop", "f", [
        (np.array([0.5, 0.2]),), (np.array([3.0, 2.0, 1.0]),), (np.array([1.0]),), (np.array([]),),
        (5.0,), ("no",),
    ]),
    ("dynamic_rnn", "dynamic_rnn", _rnn_inputs),
    ("dynamic_rnn", "rnn_step", [(1, 2), (np.ones(3), np.arange(3.0)), ("a", 1)]),
    ("early_return", "first_above", [
        ([1, 5, 2, 8], 4), ([1, 2], 4), ([], 0), ([9], 8), ([1, "x"], 0), (None, 0),
    ]),
    ("early_return", "sign", [(x,) for x in (-2, 0, 3, -0.0, 1e-9)] + [(None,)]),
    ("early_return", "recursive_fn", [(n,) for n in (-1, 0, 1, 5, 30)] + [("x",)]),
    ("break_continue", "while_tf_true_tf_break", [(n,) for n in range(0, 8)] + [(None,)]),
    ("break_continue", "buggy_while_py_true_tf_break", [(n,) for n in range(0, 8)] + [(None,)]),
    ("break_continue", "buggy_py_for_tf_break", [()]),
    ("break_continue", "tf_for_tf_break", [()]),
    ("break_continue", "count_positive_until", [
        ([3, -1, 4, 0, 7], 0), ([3, -1, 4, 7], 0), ([], 0), ([0], 0), ([-1, -2], 5),
        ([1, 2, 3], 3), (IterOf([5, 6, 0, 7]), 0), (None, 0), ([1, "a"], 0),
    ]),
    ("sum_even", "sum_even", [
        ([1, 2, 3, 4, 5, 6],), ([],), ([1, 3],), (range(100),), (IterOf(range(7)),),
        ([2, "a"],), (None,),
    ]),
    ("conditionals", "hyperparam_cond", [
        (np.ones(3),), (np.ones(3), False), (4.0, True), (4, 0), ("s", False), ("s", True),
    ]),
    ("conditionals", "maybe_tensor_cond", [(x,) for x in (-1, 0, 3, -2.5)] + [("x",)]),
    ("conditionals", "f", [()]),
    ("loops", "for_in_range", [()]),
    ("loops", "for_in_tfrange", [()]),
    ("loops", "for_in_tfdataset", [()]),
    ("loops", "while_py_cond", [()]),
    ("loops", "while_tf_cond", [()]),
    ("commented", "clipped_sum", [
        ([1, 5, 2, 8], 4), ([], 3), ([1, 2], 0), ([7], 1), ([1, "a"], 3), (None, 1),
    ]),
    ("commented", "first_over", [
        ([1, 5, 2, 8], 4), ([1, -5, 8], 4), ([], 4), ([9], 4), (IterOf([1, 6]), 4), ([1, "a"], 3), (None, 1),
    ]),
    ("list_accumulation", "squares_of_even", [(n,) for n in (0, 1, 2, 7, 10, -3)] + [("x",)]),
    ("list_accumulation", "balanced", [
        ("",), ("{[()()]}",), ("(]",), ("(",), (")",), ("a(b)c[d]{",), ("{[}]",), (None,),
    ]),
]


#: Functions with nothing to convert.
NO_CONTROL_FLOW = {"rnn_step"}


def test_every_sample_has_cases():
    assert sorted({sample for sample, _, _ in CASES}) == SAMPLES


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape
            and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
        )
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


def _outcome(fn, args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            value = fn(*args)
        except Exception as exc:  # compared, not swallowed
            return ("raise", type(exc), str(exc), out.getvalue())
    return ("ok", value, None, out.getvalue())


def _fresh(args):
    return [iter(a.items) if isinstance(a, IterOf) else a for a in args]


@contextlib.contextmanager
def _functional_forced():
    from autograph_cli import operators

    previous = operators.force_functional(True)
    try:
        assert operators.fast is False
        yield
    finally:
        operators.force_functional(previous)


@pytest.mark.parametrize(
    "sample,function,calls", CASES, ids=[f"{s}.{f}" for s, f, _ in CASES]
)
def test_converted_sample_equals_original_on_python_values(sample, function, calls):
    from autograph_cli.api import to_graph

    ns = load_sample(sample)
    original = ns[function]
    converted = to_graph(original)
    # A function without control flow may come back as it is; every other
    # must really be converted, or this test would compare a function with
    # itself.
    assert (converted is original) == (function in NO_CONTROL_FLOW)

    for args in calls:
        if sample == "dynamic_rnn" and function == "dynamic_rnn":
            args = (ns["rnn_step"], *args[1:])
        expected = _outcome(original, _fresh(args))
        fast = _outcome(converted, _fresh(args))
        with _functional_forced():
            functional = _outcome(converted, _fresh(args))
        for label, got in (("fast path", fast), ("functional form", functional)):
            assert got[0] == expected[0], f"{label} {function}{args!r}: {got!r} != {expected!r}"
            assert got[3] == expected[3], f"{label} {function}{args!r}: printed output differs"
            if expected[0] == "ok":
                assert _same(got[1], expected[1]), f"{label} {function}{args!r}: {got[1]!r} != {expected[1]!r}"
            else:
                assert got[1:3] == expected[1:3], f"{label} {function}{args!r}: {got[1:3]!r} != {expected[1:3]!r}"


@pytest.mark.parametrize("name", SAMPLES)
def test_to_code_output_runs_as_a_module(name):
    """The printed functional form is real code: executed as a module (with
    PY_TF for tf and the operators bound to ``ag__``, as ``to_graph`` binds
    them), its functions give the originals' results."""
    from autograph_cli import operators

    code = golden_path(name).read_text() if golden_path(name).exists() else to_code(name)
    original_ns = load_sample(name)
    ns = load_sample(name)
    ns["ag__"] = operators
    exec(compile(code, sample_filename(name), "exec"), ns)
    ns["tf"] = PY_TF
    cases = [(f, calls) for s, f, calls in CASES if s == name]
    with _functional_forced():
        for function, calls in cases:
            for args in calls:
                if name == "dynamic_rnn" and function == "dynamic_rnn":
                    args_o = (original_ns["rnn_step"], *args[1:])
                    args_c = (ns["rnn_step"], *args[1:])
                else:
                    args_o = args_c = args
                expected = _outcome(original_ns[function], _fresh(args_o))
                got = _outcome(ns[function], _fresh(args_c))
                assert got[0] == expected[0] and got[3] == expected[3], (function, args, got, expected)
                if expected[0] == "ok":
                    assert _same(got[1], expected[1]), (function, args, got, expected)
                else:
                    assert got[1:3] == expected[1:3], (function, args, got, expected)

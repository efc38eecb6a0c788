"""Conformance harness: the same program as plain Python and under tf.function.

Modeled on the idea of TensorFlow's AutoGraph reference tests: each corpus
module (a real file, since AutoGraph converts from source) holds plain Python
functions and a `CASES` table built with `case(...)` / `illegal(...)`.

For a `case`, every input tuple is run

1. as plain Python on Python values (the reference: value, stdout, stderr,
   exception type), and
2. through `tf.function` with the inputs staged (numbers and lists of numbers
   become `tf.constant`; `Py(v)` keeps `v` a Python value; `Arg(py, staged)`
   gives a different value to each run, e.g. `range(3)` vs a dataset),

and the two must agree: values (tensors read back with `.numpy()`, dtype
checked: a Python int must come back as int32, a float as float32, a bool as
bool, unless the case names other dtypes), printed output (stdout and
stderr, where `tf.print` writes), and the exception type (raised at trace
time or when the graph runs; `staged_raises=` names TensorFlow's type where
it differs from Python's).

An `illegal` case expresses TensorFlow's error for a construct a graph cannot
express: the staged run must raise one of the given types with a message
matching the regex.

`xfail="CLASS"` marks a case that fails today (strictly: fixing it makes the
test fail until the mark is removed); CLASS must be a key of
`FAILURE_CLASSES`, which FAILURES.md documents.
"""
from __future__ import annotations

import contextlib
import importlib
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

CATEGORIES = (
    "basic_list",
    "basic_ifexp",
    "logical_expression",
    "call_to_print_function",
    "composite_names_in_control_flow",
    "cond_basic",
    "early_return",
    "datasets",
    "generator",
    "loop_control_flow",
    "loop_control_flow_illegal_cases",
    "loop_created_variables",
    "loop_scoping",
    "loop_with_function_call",
    "loop_with_variable_type",
    "loop_with_variable_type_illegal_cases",
    "nested_control_flow",
    "type_annotations",
)

# Reasons a case fails today. Keep this small: one entry per root cause.
FAILURE_CLASSES = {
    "return-in-one-branch": "a staged if that returns in one branch only: TensorFlow says 'A value must also be "
    "returned from the else branch'; today the error names the generated 'retval_'",
    "dataset-tensor-arg": "a dataset built inside tf.function from a tensor (Dataset.range(n), "
    "from_tensor_slices(x)); TensorFlow accepts it",
    "dataset-iter": "iter()/next() on a dataset inside tf.function (TensorFlow makes a graph iterator)",
    "tf-print-format": "tf.print formats a Python list of tensors differently from TensorFlow ('[2, 3]')",
    "list-in-staged-loop": "a Python list rebuilt (same length) in a staged loop becomes a TensorArray; "
    "TensorFlow carries it as a structure of tensors (l[0] works)",
    "illegal-not-rejected": "TensorFlow rejects the construct with a located error; today it runs or fails "
    "with another error",
    "nested-python-loop-var": "a Python number inside a tuple/dict loop variable of a staged loop is not "
    "converted to a tensor (TensorFlow converts every leaf of a loop variable)",
    "error-message": "the right exception type, but the message does not say what TensorFlow's says",
    "composite-state": "attributes / items (a.b, d['k'], self.x) modified inside staged control flow are "
    "not carried as loop or cond state",
    "python-loop-tensor-jump": "return depending on a tensor inside a Python loop: neither staged correctly "
    "nor TensorFlow's NotImplementedError; the error names the generated 'retval_'",
    "chained-comparison": "a chained comparison `x < y < z` on tensors is not converted (TensorFlow's AutoGraph "
    "rewrites it into staged `and`s)",
    "wrong-value": "a silent wrong answer",
}


# TensorFlow's error for a break/return that depends on a tensor inside a loop
# that runs in Python (NotImplementedError "break and return statements which
# depend on a TF condition are not supported in Python for loops"); this
# runtime raises it too (PythonLoopTensorError, also a TypeError). Cases that
# use it accept either that error or the correct (staged) result.
PY_LOOP_TENSOR_JUMP = ((NotImplementedError, TypeError), r"(?i)(break|return).*(depend|tensor)")


# ------------------------------------------------------------------ inputs
@dataclass(frozen=True)
class Py:
    """An argument kept as a Python value in the staged run."""

    value: object


@dataclass(frozen=True)
class Arg:
    """An argument with different values for the Python and the staged run
    (`staged` may be a zero-argument callable, called per run)."""

    py: object
    staged: object


@dataclass
class Case:
    fn: object
    inputs: list
    dtypes: object = None  # expected dtype names of the staged results (flat, in order) or None
    staged_raises: tuple | None = None  # TF's exception types when Python raises
    error: tuple | None = None  # (types, regex) for illegal cases
    or_error: tuple | None = None  # (types, regex): TensorFlow's error, accepted instead of Python's outcome
    xfail: str | None = None
    check_output: bool = True
    rtol: float = 1e-5
    name: str = ""
    module: str = ""

    @property
    def id(self) -> str:
        return f"{self.module}::{self.name or self.fn.__name__}"


def case(fn, *inputs, xfail=None, dtypes=None, staged_raises=None, check_output=True, name="", or_error=None):
    assert xfail is None or xfail in FAILURE_CLASSES, xfail
    ins = [i if isinstance(i, tuple) else (i,) for i in inputs] or [()]
    if staged_raises is not None and not isinstance(staged_raises, tuple):
        staged_raises = (staged_raises,)
    return Case(fn, ins, dtypes=dtypes, staged_raises=staged_raises, xfail=xfail, check_output=check_output,
                name=name, or_error=or_error)


def illegal(fn, *inputs, raises, match, xfail=None, name=""):
    assert xfail is None or xfail in FAILURE_CLASSES, xfail
    ins = [i if isinstance(i, tuple) else (i,) for i in inputs] or [()]
    types = raises if isinstance(raises, tuple) else (raises,)
    return Case(fn, ins, error=(types, match), xfail=xfail, check_output=False, name=name)


def _py_arg(a):
    if isinstance(a, Py):
        return a.value
    if isinstance(a, Arg):
        return a.py
    return a


def _staged_arg(a):
    import autograph_cli.tf as tf

    if isinstance(a, Py):
        return a.value
    if isinstance(a, Arg):
        return a.staged() if callable(a.staged) else a.staged
    if isinstance(a, (bool, int, float)) and not isinstance(a, np.ndarray):
        return tf.constant(a)
    if isinstance(a, list) and a and all(isinstance(x, (bool, int, float)) for x in a):
        return tf.constant(a)
    if isinstance(a, tuple):
        return tuple(_staged_arg(x) for x in a)
    return a


# ------------------------------------------------------------------ running
@dataclass
class Run:
    kind: str  # "return" / "raise"
    value: object = None
    exc: BaseException | None = None
    stdout: str = ""
    stderr: str = ""
    where: str = ""  # "trace" or "run" for staged raises


def _capture(call):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            value = call()
        except Exception as e:  # noqa: BLE001 - an observation
            return Run("raise", exc=e, stdout=out.getvalue(), stderr=err.getvalue())
    return Run("return", value=value, stdout=out.getvalue(), stderr=err.getvalue())


def run_python(fn, inputs):
    import copy

    args = copy.deepcopy(tuple(_py_arg(a) for a in inputs))
    return _capture(lambda: fn(*args))


def run_staged(fn, inputs):
    """A fresh tf.function per call: trace-time output is part of what we see."""
    import autograph_cli.tf as tf

    f = tf.function(fn)
    args = tuple(_staged_arg(a) for a in inputs)
    return _capture(lambda: f(*args))


# ------------------------------------------------------------------ comparing
def _is_tensor(v):
    import autograph_cli.tf as tf

    return isinstance(v, tf.Tensor)


def _is_ta(v):
    import autograph_cli.tf as tf

    return isinstance(v, tf.TensorArray)


def to_plain(v):
    """(value, dtype-or-None) leaves: tensors read back as Python values."""
    if _is_ta(v):
        v = v.stack()
    if _is_tensor(v):
        val = np.asarray(v.numpy()).tolist()
        if isinstance(val, bytes):
            val = val.decode()
        return ("T", v.dtype.name, val)
    if isinstance(v, np.generic):
        return ("T", str(v.dtype), v.item())
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [to_plain(x) for x in v])
    if isinstance(v, dict):
        return ("dict", {k: to_plain(x) for k, x in v.items()})
    return v


_PY_DTYPE = {bool: "bool", int: "int32", float: "float32", str: "string"}


def _leaves_equal(a, b, rtol):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_leaves_equal(x, y, rtol) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        try:
            return math.isclose(float(a), float(b), rel_tol=rtol, abs_tol=rtol) or (math.isnan(a) and math.isnan(b))
        except (TypeError, ValueError):
            return False
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, (bool, int)) and isinstance(b, (bool, int)) and bool(a) == bool(b) and (
            isinstance(a, bool) == isinstance(b, bool) or a in (0, 1) and b in (0, 1))
    return a == b


def compare(ref, got, rtol=1e-5, path="result"):
    """None if `got` (staged, plain form) matches `ref` (Python, plain form); else a message."""
    # a Python container may come back as a tuple/list of tensors, or stacked
    if isinstance(ref, tuple) and ref and ref[0] in ("list", "tuple") and isinstance(got, tuple) and got[0] in (
        "list",
        "tuple",
    ):
        if len(ref[1]) != len(got[1]):
            return f"{path}: {len(ref[1])} items vs {len(got[1])}"
        for i, (x, y) in enumerate(zip(ref[1], got[1])):
            m = compare(x, y, rtol, f"{path}[{i}]")
            if m:
                return m
        return None
    if isinstance(ref, tuple) and ref and ref[0] == "dict" and isinstance(got, tuple) and got[0] == "dict":
        if set(ref[1]) != set(got[1]):
            return f"{path}: keys {sorted(ref[1])} vs {sorted(got[1])}"
        for k in ref[1]:
            m = compare(ref[1][k], got[1][k], rtol, f"{path}[{k!r}]")
            if m:
                return m
        return None
    if isinstance(got, tuple) and got and got[0] == "T":
        _, gdt, gval = got
        if isinstance(ref, tuple) and ref and ref[0] == "T":
            _, rdt, rval = ref
            if rdt != gdt:
                return f"{path}: dtype {gdt}, expected {rdt}"
            return None if _leaves_equal(rval, gval, rtol) else f"{path}: {gval!r}, expected {rval!r}"
        if isinstance(ref, tuple) and ref and ref[0] in ("list", "tuple"):
            flat = _flat_plain(ref)
            if flat is None:
                return f"{path}: a tensor {gval!r} where Python has {ref!r}"
            vals, dts = flat
            if dts and len(set(dts)) == 1 and dts[0] != gdt:
                return f"{path}: dtype {gdt}, expected {dts[0]}"
            return None if _leaves_equal(vals, gval, rtol) else f"{path}: {gval!r}, expected {vals!r}"
        want = _PY_DTYPE.get(type(ref))
        if want is None:
            return f"{path}: a {gdt} tensor {gval!r} where Python has {ref!r}"
        if want != gdt:
            return f"{path}: dtype {gdt}, expected {want} (Python {type(ref).__name__} {ref!r})"
        return None if _leaves_equal(ref, gval, rtol) else f"{path}: {gval!r}, expected {ref!r}"
    if type(ref) is not type(got):
        return f"{path}: {got!r}, expected {ref!r}"
    return None if _leaves_equal(ref, got, rtol) or ref == got else f"{path}: {got!r}, expected {ref!r}"


def _flat_plain(p):
    """A Python list of scalars/tensors as (nested values, dtypes) or None."""
    if isinstance(p, tuple) and p and p[0] in ("list", "tuple"):
        vals, dts = [], []
        for x in p[1]:
            r = _flat_plain(x)
            if r is None:
                return None
            vals.append(r[0])
            dts += r[1]
        return vals, dts
    if isinstance(p, tuple) and p and p[0] == "T":
        return p[2], [p[1]]
    if type(p) in _PY_DTYPE:
        return p, [_PY_DTYPE[type(p)]]
    return None


def _normalize_output(text):
    return text


def check_case(c: Case):
    """Run every input; return a list of mismatch messages (empty: conforms)."""
    problems = []
    for inputs in c.inputs:
        label = f"{c.id}{tuple(_py_arg(a) for a in inputs)!r}"
        if c.error is not None:
            got = run_staged(c.fn, inputs)
            types, rx = c.error
            if got.kind != "raise":
                problems.append(f"{label}: expected {'/'.join(t.__name__ for t in types)} matching {rx!r}, "
                                f"returned {to_plain(got.value)!r}")
            elif not isinstance(got.exc, types) or not re.search(rx, str(got.exc)):
                problems.append(f"{label}: expected {'/'.join(t.__name__ for t in types)} matching {rx!r}, got "
                                f"{type(got.exc).__name__}: {got.exc}")
            continue
        ref = run_python(c.fn, inputs)
        got = run_staged(c.fn, inputs)
        if c.or_error is not None and got.kind == "raise":
            types, rx = c.or_error
            if isinstance(got.exc, types) and re.search(rx, str(got.exc)):
                continue  # TensorFlow's own error for this construct
        if ref.kind == "raise":
            want = c.staged_raises or (type(ref.exc),)
            if got.kind != "raise":
                problems.append(f"{label}: Python raises {type(ref.exc).__name__}: {ref.exc}; staged returned "
                                f"{to_plain(got.value)!r}")
            elif not isinstance(got.exc, want):
                problems.append(f"{label}: Python raises {type(ref.exc).__name__}: {ref.exc}; staged raised "
                                f"{type(got.exc).__name__}: {got.exc}")
        elif got.kind == "raise":
            problems.append(f"{label}: Python returns {to_plain(ref.value)!r}; staged raised "
                            f"{type(got.exc).__name__}: {got.exc}")
        else:
            m = compare(to_plain(ref.value), to_plain(got.value), c.rtol)
            if m:
                problems.append(f"{label}: {m}")
            if c.dtypes is not None:
                dts = [leaf[1] for leaf in _tensor_leaves(to_plain(got.value))]
                if list(c.dtypes) != dts:
                    problems.append(f"{label}: result dtypes {dts}, expected {list(c.dtypes)}")
        if c.check_output:
            if ref.stdout != got.stdout:
                problems.append(f"{label}: stdout {got.stdout!r}, expected {ref.stdout!r}")
            if ref.stderr != got.stderr:
                problems.append(f"{label}: stderr {got.stderr!r}, expected {ref.stderr!r}")
    return problems


def _tensor_leaves(p):
    if isinstance(p, tuple) and p and p[0] == "T":
        yield p
    elif isinstance(p, tuple) and p and p[0] in ("list", "tuple"):
        for x in p[1]:
            yield from _tensor_leaves(x)
    elif isinstance(p, tuple) and p and p[0] == "dict":
        for x in p[1].values():
            yield from _tensor_leaves(x)


# ------------------------------------------------------------------ corpus
def load_cases():
    """All cases of all corpus modules (tests/conformance/<category>.py)."""
    cases = []
    for cat in CATEGORIES:
        if not (HERE / f"{cat}.py").exists():
            continue
        mod = importlib.import_module(f"conformance.{cat}")
        seen = {}
        for c in mod.CASES:
            c.module = cat
            base = c.name or c.fn.__name__
            n = seen.get(base, 0)
            seen[base] = n + 1
            if n:
                c.name = f"{base}_{n + 1}"
        cases += mod.CASES
    return cases

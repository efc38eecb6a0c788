"""Differential tests: every corpus function, original vs converted.

Two ways of converting are checked, both with the functional form forced
(`operators.force_functional(True)`), which is the form a trace runs:
- "to_graph": `autograph_cli.to_graph(fn)` on the original function (shares
  its globals; user functions it calls are converted on first call);
- "module": the whole corpus file through `converters.convert` and
  `api.compile_result`, executed as a fresh module.
The dual form's fast path (the user's own statements) is run once over all
hand-picked cases as well.

Equal means: same return value (or same exception type and args), same
printed output, same side effects (the corpus module's LOG / snapshot()),
same arguments after the call. Exceptions marked `# raise-site` must point
at that line of the corpus file.
"""
from __future__ import annotations

import ast
import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _differential import (
    CORPUS_FILES,
    cases_of,
    forced_functional,
    innermost_user_frame,
    load_converted,
    load_original,
    observe,
    raise_site,
    split_case,
)
from _stdlib_harness import has_control_flow

# module: the functional form inside each function; convert: the file
# `autograph convert` writes (functional forms as module-level defs)
MODES = ("to_graph", "module", "convert")


def _id(item):
    path, name, _ = item
    return f"{path.stem}.{name}"


CASES = [item for path in CORPUS_FILES for item in cases_of(path, "CASES")]
HYPOTHESIS = [item for path in CORPUS_FILES for item in cases_of(path, "HYPOTHESIS")]
# Converter bugs still open, as {(corpus file stem, function): "Bn: reason"};
# their differential and traceback tests (not the fast path) become strict
# xfails. (B4, iteration errors raised in the operator's frame, is fixed.)
KNOWN_BUGS: dict = {
    # B11: the functional form runs branch and loop bodies in generated
    # closures called by the operators, so anything counting frames sees
    # them: warnings.warn(stacklevel=2) is attributed to an operator's frame,
    # sys._getframe(0) names a generated body. (CPython's own test_re shows
    # the same through re._parser, see tests/test_stdlib_pipeline.py.)
    ("warnings_frames", "deprecated_helper"): "B11: warn(stacklevel=2) inside a branch",
    ("warnings_frames", "calls_deprecated"): "B11: warn(stacklevel=2) inside a branch",
    ("warnings_frames", "warn_to_caller_from_branch"): "B11: warn(stacklevel=2) inside a branch",
    ("warnings_frames", "caller_name_in_loop"): "B11: sys._getframe(0) is a generated body",
}
# Known bugs fixed in some modes only: {(stem, function): modes}. Compiled
# functional forms (to_graph, the import hook) and the defs of `autograph
# convert`'s files name helpers' code after their function, and stack
# readers (warnings.warn's stacklevel) skip the operators' frames there; the
# form nested in its function keeps if_body_N and its frames.
FIXED_IN: dict = {
    ("warnings_frames", "caller_name_in_loop"): {"to_graph", "convert"},
    ("warnings_frames", "deprecated_helper"): {"to_graph", "convert"},
    ("warnings_frames", "calls_deprecated"): {"to_graph", "convert"},
    ("warnings_frames", "warn_to_caller_from_branch"): {"to_graph", "convert"},
}
# Known differences of one mode only: {(stem, function): {mode: reason}}.
BROKEN_IN: dict = {}


def _mark_known(item):
    path, name, _ = item
    reason = KNOWN_BUGS.get((path.stem, name))
    if reason is None:
        return item
    return pytest.param(item, marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason))


TRACEBACKS = [
    _mark_known(item) for path in CORPUS_FILES for item in cases_of(path, "TRACEBACK")
]
CASES_MARKED = [_mark_known(item) for item in CASES]
HYPOTHESIS_MARKED = [_mark_known(item) for item in HYPOTHESIS]


def test_corpus_is_complete():
    # Every function of the corpus is exercised (a forgotten CASES entry would
    # silently test nothing).
    for path in CORPUS_FILES:
        module = load_original(path)
        tested = set(module.CASES)
        defined = {
            name
            for name, obj in vars(module).items()
            if inspect.isfunction(obj) and obj.__module__ == module.__name__
        }
        # Called by other corpus functions, or tested on their own below.
        helpers = {"note", "reset", "snapshot", "counting_gen", "helper_abs", "helper_clip",
                   "is_even", "is_odd", "untouched", "logged", "mutable_default",
                   "generator_with_send"}
        missing = defined - tested - helpers
        assert not missing, f"{path.name}: no CASES for {sorted(missing)}"
        assert set(module.HYPOTHESIS) <= defined, path.name
        assert set(module.TRACEBACK) <= defined, path.name


def converted_fn(mode: str, path, name: str):
    """(module whose LOG is observed, converted function)."""
    if mode == "to_graph":
        from autograph_cli import to_graph

        module = load_original(path)
        return module, to_graph(getattr(module, name))
    module, _ = load_converted(path, fast_path=True, lazy_defs=mode == "convert")
    return module, getattr(module, name)


def assert_same(original, converted, context):
    assert converted.kind == original.kind, (context, original, converted)
    assert converted.value == original.value, context
    assert converted.stdout == original.stdout, context
    assert converted.effects == original.effects, context
    assert converted.args_after == original.args_after, context
    assert converted.warned == original.warned, context


def check(mode, path, name, case):
    args, kwargs = split_case(case)
    original_module = load_original(path)
    want = observe(getattr(original_module, name), original_module, args, kwargs)
    module, fn = converted_fn(mode, path, name)
    with forced_functional():
        got = observe(fn, module, args, kwargs)
    assert_same(want, got, (mode, name, case))
    if want.kind == "raise":
        # The innermost frame outside the operators is the user's line (the
        # strict innermost frame is test_traceback_points_at_user_line's job).
        assert innermost_user_frame(got.exception) == want.where, (mode, name, case)


def _by_mode(items):
    out = []
    for item in items:
        for mode in MODES:
            path, name, _ = item
            marked = item if mode in FIXED_IN.get((path.stem, name), ()) else _mark_known(item)
            marks = marked.marks if hasattr(marked, "marks") else ()
            broken = BROKEN_IN.get((path.stem, name), {}).get(mode)
            if broken:
                marks = (*marks, pytest.mark.xfail(strict=True, raises=AssertionError, reason=broken))
            out.append(pytest.param(item, mode, marks=marks, id=f"{_id(item)}-{mode}"))
    return out


@pytest.mark.parametrize("item,mode", _by_mode(CASES))
def test_hand_picked_cases(mode, item):
    path, name, cases = item
    for case in cases:
        check(mode, path, name, case)


@pytest.mark.parametrize("item", CASES, ids=_id)
def test_fast_path_cases(item):
    # Not forced: the dual form runs the user's own statements.
    path, name, cases = item
    original_module = load_original(path)
    module, _ = load_converted(path, fast_path=True)
    for case in cases:
        args, kwargs = split_case(case)
        want = observe(getattr(original_module, name), original_module, args, kwargs)
        got = observe(getattr(module, name), module, args, kwargs)
        assert_same(want, got, ("fast", name, case))


KINDS = {
    "int": st.integers(-60, 60),
    "nat": st.integers(0, 40),
    "pos": st.integers(1, 300),
    "ints": st.lists(st.integers(-12, 12), max_size=8),
    "any": st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 5),
        st.floats(-5, 5, allow_nan=False),
        st.text(max_size=4),
        st.lists(st.integers(-3, 3), max_size=3),
        st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
    ),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("item", HYPOTHESIS_MARKED, ids=_id)
@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_generated_inputs(mode, item, data):
    path, name, kinds = item
    args = tuple(data.draw(KINDS[k], label=f"arg{i}") for i, k in enumerate(kinds))
    check(mode, path, name, args)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("item", TRACEBACKS, ids=_id)
def test_traceback_points_at_user_line(mode, item):
    path, name, args = item
    module = load_original(path)
    site = raise_site(getattr(module, name))
    want = observe(getattr(module, name), module, args)
    assert want.kind == "raise" and want.where == site  # the corpus is right
    conv_module, fn = converted_fn(mode, path, name)
    with forced_functional():
        got = observe(fn, conv_module, args)
    assert got.kind == "raise"
    assert got.value == want.value
    assert got.where == site
    # The original's frames in the corpus file appear, in order, in the
    # converted traceback (which may add frames for generated bodies, all at
    # real lines of the function).
    want_frames = corpus_frames(want.exception)
    got_frames = corpus_frames(got.exception)
    it = iter(got_frames)
    assert all(f in it for f in want_frames), (want_frames, got_frames)
    lines, start = inspect.getsourcelines(getattr(module, name))
    for filename, lineno in got_frames:
        if filename == site[0]:
            assert start <= lineno < start + len(lines), (filename, lineno)


def corpus_frames(exc):
    import traceback

    corpus = {str(p) for p in CORPUS_FILES}
    return [
        (f.filename, f.lineno)
        for f in traceback.extract_tb(exc.__traceback__)
        if f.filename in corpus
    ]


@pytest.mark.parametrize("method", range(3))
def test_methods_with_super(method):
    from autograph_cli import to_graph

    from _differential import CORPUS_DIR

    path = CORPUS_DIR / "other_syntax.py"
    module = load_original(path)
    cls_name, meth, ctor, args = module.METHODS[method]
    cls = getattr(module, cls_name)
    original = getattr(cls, meth)
    converted = to_graph(original)
    want = observe(lambda *a: original(cls(*ctor), *a), module, args)
    with forced_functional():
        got = observe(lambda *a: converted(cls(*ctor), *a), module, args)
    assert_same(want, got, (cls_name, meth))
    # A bound method converts too.
    with forced_functional():
        bound = to_graph(cls(*ctor).describe)
        got = observe(bound, module, args)
    assert_same(want, got, (cls_name, meth, "bound"))


def test_lambda_to_graph():
    from autograph_cli import to_graph

    from _differential import CORPUS_DIR

    module = load_original(CORPUS_DIR / "branches.py")
    clamp = lambda v: 0 if v < 0 else (9 if v > 9 else v)  # noqa: E731
    both = lambda a, b: a and b or not a  # noqa: E731
    g_clamp, g_both = to_graph(clamp), to_graph(both)
    with forced_functional():
        for v in range(-3, 13):
            assert observe(g_clamp, module, (v,)) == observe(clamp, module, (v,))
            for w in (0, 1, ""):
                assert observe(g_both, module, (v, w)) == observe(both, module, (v, w))


def test_mutable_default_is_shared():
    # The converted function keeps the original's default objects: state kept
    # in a mutable default carries over between calls of either.
    from autograph_cli import to_graph

    from _differential import CORPUS_DIR

    module = load_original(CORPUS_DIR / "calls_scopes.py")
    f = module.mutable_default
    g = to_graph(f)
    with forced_functional():
        before = f(0)
        assert g(1) == before + 1
        assert f(2) == before + 2
        assert g(0) == before + 2


def test_closure_cells_are_shared():
    from autograph_cli import to_graph

    def make():
        total = 0

        def add(values):
            nonlocal total
            for v in values:
                if v > 0:
                    total += v
            return total

        def get():
            return total

        return add, get

    add, get = make()
    g = to_graph(add)
    with forced_functional():
        assert g([1, -2, 3]) == 4
        assert get() == 4
        assert add([5]) == 9
        assert g([]) == 9


def test_functional_form_really_runs(monkeypatch):
    # Guard against a vacuous corpus: with the functional form forced, the
    # operators are called; without it (fast path) they are not.
    from autograph_cli import operators

    from _differential import CORPUS_DIR

    calls = []
    for op in ("if_stmt", "while_stmt", "for_stmt"):
        real = getattr(operators, op)

        def counting(*a, _real=real, _op=op, **k):
            calls.append(_op)
            return _real(*a, **k)

        monkeypatch.setattr(operators, op, counting)
    module, _ = load_converted(CORPUS_DIR / "loops.py", fast_path=True)
    module.collatz(6)
    module.fizzbuzz(5)
    assert calls == []
    with forced_functional():
        module.collatz(6)
        module.fizzbuzz(5)
    assert {"if_stmt", "while_stmt", "for_stmt"} <= set(calls)


# Functions the converter is allowed to leave as they are (docs/internals.md):
# generators, coroutines, users of locals()/eval, return/break/continue in
# finally, and @do_not_convert.
ALLOWED_LEFT = {"uses_locals", "uses_eval", "untouched", "finally_overrides", "continue_in_finally"}


def _is_generator_or_async(node):
    from _stdlib_harness import _own_nodes

    if isinstance(node, ast.AsyncFunctionDef):
        return True
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(node))


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_corpus_functions_are_converted(path):
    # The differential tests mean something only if the functions were
    # really converted: every def with control flow is reported converted,
    # except the kinds the design leaves alone.
    from _differential import convert_file

    result = convert_file(path, fast_path=True)
    reported = {(r.qualname, r.line): r for r in result.report}
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if node.name in ALLOWED_LEFT or _is_generator_or_async(node) or not has_control_flow(node):
            continue
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        hits = [r for (q, line), r in reported.items() if first <= line <= node.lineno]
        assert hits, f"{path.name}:{node.lineno}: {node.name} missing from the report"
        assert all(r.converted for r in hits), (path.name, hits)


def test_conversion_is_deterministic():
    from _differential import convert_file

    for path in CORPUS_FILES:
        a = convert_file(path, fast_path=False)
        b = convert_file(path, fast_path=False)
        assert a.code == b.code
        ast.parse(a.code)


@pytest.fixture
def functional():
    """Force the functional form for one test, then restore the setting."""
    with forced_functional():
        yield


def test_fixture_forces_and_restores(functional):
    from autograph_cli import operators

    assert operators.fast is False

"""Run CPython's own test module against a converted standard-library module.

Used as a script, in a subprocess per (module, mode) so that the converted
module never leaks into another test:

    python tests/_stdlib_harness.py MODULE TEST_MODULE --mode converted --out FILE

In "converted" mode the module's source is converted with
`converters.convert`, compiled with `autograph_cli.api.compile_result`, and
served by a meta-path finder placed first on `sys.meta_path`, so every import
of MODULE (including `test.support.import_helper.import_fresh_module`, which
the heapq/bisect/statistics tests use for their pure-Python variants) executes
the converted code. The functional form is forced before anything is
imported. The test module is then loaded with unittest (its `load_tests`,
and so its doctests, included) and every test's outcome is written as JSON.

Also importable: the module list and the control-flow census shared with
benchmarks/stdlib_coverage.py.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import importlib.machinery
import importlib.util
import json
import re
import sys
import time
import unittest
from pathlib import Path

# (module, CPython test module). All pure Python (or with a pure-Python variant
# the test module exercises), and their tests run standalone in a few seconds.
MODULES = [
    ("textwrap", "test.test_textwrap"),
    ("colorsys", "test.test_colorsys"),
    ("fnmatch", "test.test_fnmatch"),
    ("shlex", "test.test_shlex"),
    ("heapq", "test.test_heapq"),
    ("bisect", "test.test_bisect"),
    ("difflib", "test.test_difflib"),
    ("statistics", "test.test_statistics"),
    ("string", "test.test_string"),
    ("base64", "test.test_base64"),
    ("html", "test.test_html"),
    ("ipaddress", "test.test_ipaddress"),
    ("calendar", "test.test_calendar"),
    ("graphlib", "test.test_graphlib"),
    ("fractions", "test.test_fractions"),
    ("pprint", "test.test_pprint"),
    ("configparser", "test.test_configparser"),
    ("argparse", "test.test_argparse"),
    # The regular-expression parser: every re.compile in the subprocess,
    # unittest's own included, goes through the converted module.
    # (sre_parse before 3.11.)
    ("re._parser" if sys.version_info >= (3, 11) else "sre_parse", "test.test_re"),
]

# CPython tests that pass on the original and are known to fail converted,
# with the bug; the pipeline test requires exactly these to fail (strict).
KNOWN_DIFFERENCES = {
    # B11: warnings.warn(stacklevel=...) counts the generated bodies' and
    # operators' frames, so the warning names re/_parser.py (sre_parse.py),
    # not the caller. Which tests check the warning's file depends on the version.
    f"test.test_re.ReTests.{test}": "B11: warn(stacklevel) sees generated frames"
    for test in {
        (3, 10): ["test_inline_flags"],
        (3, 11): ["test_symbolic_refs_errors", "test_re_groupref_exists_errors", "test_symbolic_groups_errors"],
        (3, 13): ["test_possible_set_operations"],
    }.get(sys.version_info[:2], [])
}

COUNTED_OPERATORS = ("if_stmt", "while_stmt", "for_stmt", "if_exp", "and_", "or_", "not_")


def module_source_path(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        raise LookupError(f"{name}: no Python source")
    if spec.submodule_search_locations:
        return Path(spec.origin)  # a package: its __init__.py
    return Path(spec.origin)


# ------------------------------------------------------------------ census


_CONTROL_FLOW = (ast.If, ast.While, ast.For, ast.AsyncFor, ast.IfExp, ast.BoolOp, ast.Assert)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _own_nodes(fn):
    """Nodes of fn's body, not descending into nested scopes or comprehensions."""
    stack = list(fn.body) if not isinstance(fn, ast.Lambda) else [fn.body]
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES + _COMPREHENSIONS):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def has_control_flow(fn) -> bool:
    for node in _own_nodes(fn):
        if isinstance(node, _CONTROL_FLOW):
            return True
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return True
    return False


def functions_with_control_flow(source: str):
    """[(qualname, first line incl. decorators, def line)] of defs with control flow."""
    out = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = prefix + child.name
                if has_control_flow(child):
                    first = min([d.lineno for d in child.decorator_list] + [child.lineno])
                    out.append((qual, first, child.lineno))
                visit(child, qual + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return out


_GENERATED_DEF = re.compile(r"^(if_body|else_body|loop_body|loop_test|extra_test|rest|loop_else|try_else)_\d+_*$")
_OPERATOR_CALLS = frozenset(
    ("if_stmt", "while_stmt", "for_stmt", "if_exp", "and_", "or_", "not_", "assert_stmt")
)


def _rewritten_defs(functional_code: str):
    """{(qualname, def line): operators called} for the defs whose own code
    (generated bodies included) calls control-flow operators. Lines are those
    of the functional-form text; the caller maps them."""
    out = {}

    def calls_operators(fn):
        used = set()
        stack = list(fn.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if not _GENERATED_DEF.match(node.name):
                    continue
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "ag__"
                and node.func.attr in _OPERATOR_CALLS
            ):
                used.add(node.func.attr)
            stack.extend(ast.iter_child_nodes(node))
        return used

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if _GENERATED_DEF.match(child.name):
                    visit(child, prefix)
                    continue
                qual = prefix + child.name
                used = calls_operators(child)
                if used:
                    out[(qual, child.lineno)] = used
                visit(child, qual + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(functional_code), "")
    return out


def _defs_with_statements(source: str):
    """Def lines of functions whose own body has an if/while/for statement."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(isinstance(n, (ast.If, ast.While, ast.For)) for n in _own_nodes(node)):
                lines.add(node.lineno)
    return lines


def census(name: str):
    """Convert module `name`; match its report against the control-flow defs.

    Returns a dict: functions (with control flow), converted (control flow
    really rewritten into operator calls), untouched (reported converted but
    no control-flow operator in the functional form), left [(qualname, line,
    reason)], missing (not in the report), expressions_only (converted
    functions whose if/while/for statements all stayed Python statements:
    only and/or/not/ternaries rewritten, e.g. generators), seconds (one
    dual-form conversion).
    """
    import converters

    path = module_source_path(name)
    source = path.read_text()
    t0 = time.perf_counter()
    result = converters.convert(source, filename=str(path), fast_path=True)
    seconds = time.perf_counter() - t0
    functional = converters.convert(source, filename=str(path), fast_path=False)
    rewritten = {}
    for (qual, line), used in _rewritten_defs(functional.code).items():
        rewritten.setdefault(qual, set()).update(used)
    statement_defs = _defs_with_statements(source)
    converted, untouched, left, missing, expressions_only = [], [], [], [], []
    for qual, first, line in functions_with_control_flow(source):
        hits = [r for r in result.report if first <= r.line <= line]
        if not hits:
            hits = [r for r in result.report if r.qualname == qual]
        if not hits:
            missing.append((qual, line))
        elif not all(r.converted for r in hits):
            reason = next(r.reason for r in hits if not r.converted)
            left.append((qual, line, reason or "(no reason given)"))
        elif qual in rewritten:
            converted.append((qual, line))
            if line in statement_defs and not rewritten[qual] & {"if_stmt", "while_stmt", "for_stmt"}:
                expressions_only.append((qual, line))
        else:
            untouched.append((qual, line, hits[0].reason or "control flow not rewritten"))
    return {
        "module": name,
        "lines": source.count("\n"),
        "functions": len(converted) + len(untouched) + len(left) + len(missing),
        "converted": converted,
        "untouched": untouched,
        "expressions_only": expressions_only,
        "left": left,
        "missing": missing,
        "seconds": seconds,
    }


# ------------------------------------------------------------ the subprocess


class _ConvertedLoader(importlib.machinery.SourceFileLoader):
    """Loads the converted code (compiled under the original file name)."""

    code = None
    executions = 0

    def get_code(self, fullname):
        return type(self).code

    def exec_module(self, module):
        from autograph_cli import operators

        type(self).executions += 1
        module.ag__ = operators
        super().exec_module(module)


class _ConvertedFinder:
    def __init__(self, name, path):
        self.name = name
        self.path = str(path)

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        loader = _ConvertedLoader(fullname, self.path)
        return importlib.util.spec_from_file_location(fullname, self.path, loader=loader)

    def invalidate_caches(self):
        pass


def install_converted(name: str):
    """Convert `name` and make every import of it load the converted code."""
    import converters
    from autograph_cli import api

    path = module_source_path(name)
    result = converters.convert(path.read_text(), filename=str(path), fast_path=True)
    _ConvertedLoader.code = api.compile_result(result)
    old = sys.modules.pop(name, None)
    sys.meta_path.insert(0, _ConvertedFinder(name, path))
    new = importlib.import_module(name)
    if old is not None:  # modules that imported it (re's sre_compile) use the converted one
        for mod in list(sys.modules.values()):
            for key, value in list(getattr(mod, "__dict__", {}).items()):
                if value is old:
                    setattr(mod, key, new)
    return result


def _watch_operators(used):
    """Note which operators run; each wrapper removes itself on first use."""
    from autograph_cli import operators

    for op in COUNTED_OPERATORS:
        real = getattr(operators, op, None)
        if real is None:
            continue
        used[op] = False

        def first_call(*args, _real=real, _op=op, **kwargs):
            used[_op] = True
            setattr(operators, _op, _real)
            return _real(*args, **kwargs)

        setattr(operators, op, first_call)


class RecordingResult(unittest.TestResult):
    """Every test's (and subtest's) outcome, by id."""

    def __init__(self):
        super().__init__()
        self.outcomes = {}
        self.details = {}

    def _set(self, test, outcome, err=None):
        key = test.id()
        # A test with a failed subtest has failed, whatever it reports later.
        if self.outcomes.get(key) in ("fail", "error") and outcome == "pass":
            return
        self.outcomes[key] = outcome
        if err is not None:
            self.details[key] = self._exc_info_to_string(err, test)[-3000:]

    def addSuccess(self, test):
        self._set(test, "pass")

    def addFailure(self, test, err):
        self._set(test, "fail", err)

    def addError(self, test, err):
        # setUpClass/module failures arrive as _ErrorHolder "tests".
        self._set(test, "error", err)

    def addSkip(self, test, reason):
        self._set(test, "skip")

    def addExpectedFailure(self, test, err):
        self._set(test, "expected_failure")

    def addUnexpectedSuccess(self, test):
        self._set(test, "unexpected_success")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            outcome = "fail" if issubclass(err[0], test.failureException) else "error"
            self._set(test, outcome, err)
            self.outcomes[subtest.id()] = outcome


def run(module: str, test_module: str, mode: str) -> dict:
    t0 = time.perf_counter()
    report = {"module": module, "mode": mode}
    used = {}
    if mode == "converted":
        from autograph_cli import operators

        result = install_converted(module)
        report["functions_converted"] = sum(r.converted for r in result.report)
        report["functions_left"] = sum(not r.converted for r in result.report)
        _watch_operators(used)
        operators.force_functional(True)
    else:
        # Same starting point as the converted run: the module is imported.
        importlib.import_module(module)
    report["setup_seconds"] = time.perf_counter() - t0
    suite = unittest.defaultTestLoader.loadTestsFromName(test_module)
    outcome = RecordingResult()
    suite.run(outcome)
    report["outcomes"] = outcome.outcomes
    report["details"] = outcome.details
    report["seconds"] = time.perf_counter() - t0
    if mode == "converted":
        report["loader_executions"] = _ConvertedLoader.executions
        report["operators_used"] = used
    return report


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("module")
    parser.add_argument("test_module")
    parser.add_argument("--mode", choices=("original", "converted"), default="converted")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    report = run(args.module, args.test_module, args.mode)
    import converters

    report["converters"] = converters.__file__
    Path(args.out).write_text(json.dumps(report, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()

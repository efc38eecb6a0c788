"""The static analysis the converters and ``autograph check`` share
(converters/analysis/): where a fact is computed once for both, both sides
give the same answer on the same code.

What makes the converter leave a function as it is (``async``,
``locals()``/``vars()``/``exec``/``eval``, jumps out of ``finally``) and
whether it is a generator: ``check`` reports it (AG401-AG404) exactly for
the functions whose conversion report says so.
"""
from __future__ import annotations

import ast
import random
import sysconfig
from pathlib import Path

import libcst as cst
import pytest

from converters import Status, convert
from converters.analysis import ConverterView, constructs, scan_module
from converters.check import check_source
from converters.lines import statement_lines

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "tests" / "check_cases").glob("*.py"))
_REASON_WORDS = {"AG402": "calls ", "AG403": " inside finally", "AG404": "async function"}


def _agreement(source: str) -> list[tuple[str, set, Status, str | None]]:
    """Per staged function: the AG4xx codes check reports in it, and the
    converter's status and reason for it."""
    tree = ast.parse(source)
    staged = [fi for fi in scan_module(tree).functions if fi.staged]
    diags = [d for d in check_source(source, "m.py") if d.code.startswith("AG4")]
    report = {r.qualname: r for r in convert(source, filename="m.py").report}
    out = []
    for fi in staged:
        inner = [f.node for f in scan_module(tree).functions if f.node is not fi.node
                 and f.node.lineno > fi.node.lineno and f.node.end_lineno <= fi.node.end_lineno]
        first = min([fi.node.lineno, *(d.lineno for d in fi.node.decorator_list)])

        def own(line):
            return first <= line <= fi.node.end_lineno and not any(
                n.lineno <= line <= n.end_lineno for n in inner)
        codes = {d.code for d in diags if own(d.line)}
        r = report[fi.qualname]
        out.append((fi.qualname, codes, r.status, r.reason))
    return out


def _assert_agree(rows) -> None:
    for qualname, codes, status, reason in rows:
        left = codes - {"AG401"}
        if left:
            assert status == Status.LEFT_AS_IS, (qualname, codes, status, reason)
            assert any(_REASON_WORDS[c] in reason for c in left), (qualname, codes, reason)
        elif "AG401" in codes:  # (a generator without control flow or calls stays as written)
            assert status in (Status.GENERATOR, Status.NOTHING_TO_CONVERT), (qualname, codes, status, reason)
        else:
            assert status != Status.LEFT_AS_IS and status != Status.GENERATOR, (qualname, status, reason)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_check_reports_ag4xx_exactly_where_the_converter_leaves_the_function(path):
    _assert_agree(_agreement(path.read_text(encoding="utf-8")))


def test_the_unconvertible_case_file_has_every_kind_on_both_sides():
    rows = _agreement((ROOT / "tests" / "check_cases" / "ag4xx_unconvertible.py").read_text())
    by_name = {q: (codes, status, reason) for q, codes, status, reason in rows}
    assert by_name["uses_locals"] == ({"AG402"}, Status.LEFT_AS_IS, "calls locals()")
    assert by_name["return_in_finally"] == ({"AG403"}, Status.LEFT_AS_IS, "return inside finally")
    assert by_name["break_in_finally"] == ({"AG403"}, Status.LEFT_AS_IS, "break inside finally")
    assert by_name["coroutine"] == ({"AG404"}, Status.LEFT_AS_IS, "async function")
    assert by_name["generator"][:2] == ({"AG401"}, Status.GENERATOR)
    # what check calls clean, the converter converts (it left both as they were before
    # the fact was shared: `vars(o)` reads no local, and `eval` here is the user's own)
    assert by_name["vars_of_an_object"][1] == Status.CONVERTED
    assert by_name["shadowed_eval"][1] == Status.CONVERTED
    assert by_name["loop_inside_finally"][1] == Status.CONVERTED


_PIECES = [
    "y = locals()", "y = vars()", "y = vars(o)", "exec('pass')", "y = eval('1')", "yield x",
    "y = [eval(s) for s in 'ab']", "y = lambda: locals()", "def inner():\n    return eval('1')",
    "try:\n    pass\nfinally:\n    return x", "for i in range(2):\n    try:\n        pass\n    finally:\n        break",
    "try:\n    pass\nfinally:\n    for i in range(2):\n        continue",
    "while x:\n    try:\n        pass\n    finally:\n        continue",
    "def eval(s):\n    return s", "locals = dict", "y = (yield)", "if x:\n    y = x\nelse:\n    y = -x",
]


def _random_module(rng: random.Random) -> str:
    header = "import autograph_cli.tf as tf\n"
    if rng.random() < 0.2:
        header += "from builtins import eval as eval\n" if rng.random() < 0.5 else "vars = dict\n"
    funcs = []
    for k in range(4):
        body = [p for p in _PIECES if rng.random() < 0.15] or ["y = x"]
        lines = "\n".join("    " + line for piece in body for line in piece.split("\n"))
        kw = "async def" if rng.random() < 0.05 else "def"
        funcs.append(f"@tf.function\n{kw} f{k}(x, o):\n{lines}\n    return x\n")
    return header + "\n\n".join(funcs)


@pytest.mark.parametrize("seed", range(40))
def test_random_functions_agree(seed):
    source = _random_module(random.Random(seed))
    _assert_agree(_agreement(source))


def _views(source: str):
    tree = ast.parse(source)
    module = cst.parse_module(source)
    defs: dict = {}
    statement_lines(module, tree, {}, defs)
    return ConverterView(source, tree, defs), defs


def _describe(found):
    return [(c.kind, c.node.lineno, c.node.col_offset, c.reason) for c in found]


_STDLIB = Path(sysconfig.get_paths()["stdlib"])


@pytest.mark.parametrize("path", [*CASES, *(_STDLIB / f"{m}.py" for m in (
    "contextlib", "argparse", "inspect", "typing", "asyncio/tasks", "_pydecimal", "pdb", "code"))],
    ids=lambda p: p.stem)
def test_the_converters_text_prefilter_never_changes_the_answer(path):
    """The converter skips functions (and statements) whose lines spell none
    of the constructs' keywords: the constructs found are the same as a full
    walk's."""
    if not path.exists():
        pytest.skip(f"{path} not in this interpreter's library")
    source = path.read_text(encoding="utf-8")
    view, defs = _views(source)
    full = ConverterView(source, ast.parse(source), None)  # never paired: no prefilter
    assert defs
    for fn, node in defs.items():
        expected = constructs(node, full._shadowed_in(node))
        assert _describe(view.constructs(fn)) == _describe(expected), (path.name, node.name, node.lineno)


def test_functions_with_vars_of_an_object_convert_and_run_as_before():
    source = (
        "def describe(o, n):\n"
        "    out = []\n"
        "    for k in sorted(vars(o)):\n"
        "        if k.startswith('_'):\n"
        "            continue\n"
        "        out.append(k * n)\n"
        "    return out\n"
    )
    result = convert(source, filename="m.py", fast_path=False)
    assert [r.status for r in result.report] == [Status.CONVERTED]

    class O:
        def __init__(self):
            self.a, self._b, self.c = 1, 2, 3
    plain: dict = {}
    exec(compile(source, "m.py", "exec"), plain)
    from autograph_cli import operators
    converted: dict = {"ag__": operators}
    exec(compile(result.code, "m.py", "exec"), converted)
    assert converted["describe"](O(), 2) == plain["describe"](O(), 2) == ["aa", "cc"]

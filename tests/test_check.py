"""Tests of the static checker behind ``autograph check`` (converters.check).

Golden cases live in tests/check_cases/:

- ``<rule>.py``: the seeds' buggy examples and more, each expected diagnostic
  marked on its line with ``# expect: CODE``, followed by clean variants. The
  full output (positions and messages) is kept in ``<rule>.py.out``; after an
  intended change, regenerate with ``AUTOGRAPH_UPDATE_GOLDEN=1 pytest
  tests/test_check.py`` and read the diff before committing.
- ``seed_ok/*.py``: the seed documents' correct examples, as the seeds write
  them: nothing may be reported there, and neither on ``samples/``.
"""
from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converters import ConversionError, Diagnostic
from converters.check import CODES, check_source
from converters.analysis import scan_module

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "check_cases"
CASE_FILES = sorted(CASES.glob("*.py"))
SEED_OK = sorted((CASES / "seed_ok").glob("*.py"))
SAMPLES = sorted((ROOT / "samples").glob("*.py"))
UPDATE = os.environ.get("AUTOGRAPH_UPDATE_GOLDEN") == "1"

_EXPECT = re.compile(r"#\s*expect:\s*(AG\d{3}(?:\s*,\s*AG\d{3})*)")
_STAGED = re.compile(r"^# staged: (.+)$", re.MULTILINE)


def _expected(source: str) -> set[tuple[int, str]]:
    out = set()
    for i, line in enumerate(source.splitlines(), 1):
        m = _EXPECT.search(line)
        if m:
            out.update((i, c.strip()) for c in m.group(1).split(","))
    return out


def _check_case(path: Path) -> list[Diagnostic]:
    source = path.read_text(encoding="utf-8")
    m = _STAGED.search(source)
    staged = set(m.group(1).split()) if m else None
    return check_source(source, path.name, staged=staged)


def _staged_names(source: str) -> list[str]:
    return [f.qualname for f in scan_module(ast.parse(source)).functions if f.staged]


# -- golden cases ------------------------------------------------------------

@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.stem)
def test_case_reports_exactly_the_marked_lines(path):
    source = path.read_text(encoding="utf-8")
    got = {(d.line, d.code) for d in _check_case(path)}
    assert got == _expected(source)


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.stem)
def test_case_golden_output(path):
    text = "".join(str(d) + "\n" for d in _check_case(path))
    golden = path.with_name(path.name + ".out")
    if UPDATE:
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"missing {golden.name}; run with AUTOGRAPH_UPDATE_GOLDEN=1"
    assert text == golden.read_text(encoding="utf-8")


def test_every_code_has_a_positive_case():
    marked = set()
    for path in CASE_FILES:
        marked |= {code for _, code in _expected(path.read_text(encoding="utf-8"))}
    assert marked == set(CODES)


def test_messages_locate_and_end_with_the_fix():
    for path in CASE_FILES:
        for d in _check_case(path):
            assert d.code in CODES
            assert "\n" not in d.message
            # "<what is wrong>; <the fix, one sentence>."
            what, _, fix = d.message.rpartition("; ")
            assert what and fix.endswith(".") and fix.count(". ") == 0, d.message
            assert str(d).startswith(f"{path.name}:{d.line}:{d.col}: {d.code} ")


# -- no false positives ------------------------------------------------------

@pytest.mark.parametrize("path", SEED_OK, ids=lambda p: p.stem)
def test_seed_correct_examples_are_clean(path):
    source = path.read_text(encoding="utf-8")
    # The file must really be checked: every decorated function is staged.
    decorated = len(re.findall(r"^\s*@tf\.function\b", source, re.MULTILINE))
    assert decorated >= 1
    assert len(_staged_names(source)) >= decorated
    assert [str(d) for d in check_source(source, path.name)] == []


def test_samples_exist_and_are_staged():
    assert SAMPLES, "samples/ is empty"
    staged = [n for p in SAMPLES for n in _staged_names(p.read_text(encoding="utf-8"))]
    assert staged, "no sample wraps a function in tf.function: the test below would prove nothing"


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_samples_are_clean(path):
    # Samples name the seeds' deliberately wrong examples buggy_*: those must
    # be reported (tests/test_cli_check.py checks that); nothing else may be.
    source = path.read_text(encoding="utf-8")
    buggy = [(f.lineno, f.end_lineno) for f in ast.walk(ast.parse(source))
             if isinstance(f, ast.FunctionDef) and f.name.startswith("buggy_")]
    found = [d for d in check_source(source, str(path)) if not any(a <= d.line <= b for a, b in buggy)]
    assert [str(d) for d in found] == []


# -- the checker agrees with the runtime --------------------------------------

def test_reported_functions_fail_in_the_runtime_and_the_others_run():
    import importlib.util
    path = CASES / "runtime_agreement.py"
    source = path.read_text(encoding="utf-8")
    spans = {f.qualname: (f.node.lineno, f.node.end_lineno) for f in scan_module(ast.parse(source)).functions
             if f.staged}
    found = check_source(source, path.name)
    reported = {q for q, (a, b) in spans.items() for d in found if a <= d.line <= b}
    # AG102 is TensorFlow 1.x's failure: here those functions run (AG102
    # raises only when the loop runs zero times, which CALLS does not do)
    portable_only = {q for q, (a, b) in spans.items()
                     if all(d.code == "AG102" for d in found if a <= d.line <= b)} & reported
    assert portable_only
    spec = importlib.util.spec_from_file_location("_check_runtime_agreement", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(module.CALLS) == set(spans)
    assert reported and reported != set(spans)
    outcome = {}
    for name, call in module.CALLS.items():
        try:
            call()
            outcome[name] = False
        except Exception:  # the runtime's own errors: ValueError, TypeError, RecursionError ...
            outcome[name] = True
    assert {name for name, failed in outcome.items() if failed} == reported - portable_only


def test_reported_side_effects_change_behaviour_once_staged():
    import importlib.util
    path = CASES / "runtime_agreement_effects.py"
    source = path.read_text(encoding="utf-8")
    spans = {f.qualname: (f.node.lineno, f.node.end_lineno) for f in scan_module(ast.parse(source)).functions
             if f.staged}
    reported = {q for q, (a, b) in spans.items() for d in check_source(source, path.name) if a <= d.line <= b}
    spec = importlib.util.spec_from_file_location("_check_runtime_agreement_effects", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tf = module.tf
    assert set(module.SCENARIOS) == set(spans)
    assert reported and reported != set(spans)

    def observe(scenario):
        try:
            return scenario()
        except Exception as e:  # a leaked symbolic tensor, say
            return type(e).__name__

    differ = set()
    for name, scenario in module.SCENARIOS.items():
        tf.config.run_functions_eagerly(True)
        try:
            eager = observe(scenario)
        finally:
            tf.config.run_functions_eagerly(False)
        staged = observe(scenario)  # the first trace of this function
        if eager != staged:
            differ.add(name)
    assert differ == reported


# -- the API the CLI uses ----------------------------------------------------

BUGGY = """\
import autograph_cli.tf as tf
log = []

@tf.function
def f(x):
  if x > 0:
    y = x
  log.append(x)
  v = tf.Variable(1.0)
  return y
"""


def test_diagnostics_are_sorted_and_located():
    diags = check_source(BUGGY, "m.py")
    assert [(d.line, d.col, d.code) for d in diags] == [
        (8, 3, "AG201"), (9, 7, "AG301"), (10, 10, "AG101")]
    assert all(isinstance(d, Diagnostic) and d.filename == "m.py" for d in diags)
    assert str(diags[0]).startswith("m.py:8:3: AG201 `log.append(...)` mutates `log`")


def test_select_and_ignore_take_codes_and_prefixes():
    codes = lambda **kw: [d.code for d in check_source(BUGGY, "m.py", **kw)]
    assert codes(select={"AG101"}) == ["AG101"]
    assert codes(select={"AG2", "AG3"}) == ["AG201", "AG301"]
    assert codes(ignore={"AG2"}) == ["AG301", "AG101"]
    assert codes(select={"AG"}, ignore={"AG101", "AG301"}) == ["AG201"]
    assert codes(select=set()) == []


def test_staged_option_names_qualnames():
    source = """\
import autograph_cli.tf as tf
class M:
  def step(self):
    return tf.Variable(1.0)
def outer():
  def inner():
    return tf.Variable(1.0)
  return inner
def step():
  return tf.Variable(1.0)
"""
    assert check_source(source, "m.py") == []
    assert [d.line for d in check_source(source, "m.py", staged={"M.step"})] == [4]
    assert [d.line for d in check_source(source, "m.py", staged={"outer.<locals>.inner"})] == [7]
    assert [d.line for d in check_source(source, "m.py", staged={"step"})] == [10]
    assert [d.line for d in check_source(source, "m.py", staged={"*step"})] == [4, 10]
    assert [d.line for d in check_source(source, "m.py", staged={"outer.*"})] == [7]


def test_noqa_comments():
    source = BUGGY.replace("  log.append(x)\n", "  log.append(x)  # noqa: AG201\n")
    source = source.replace("  v = tf.Variable(1.0)\n", "  v = tf.Variable(1.0)  # noqa: AG1\n")
    source = source.replace("  return y\n", "  return y  # noqa\n")
    assert [d.code for d in check_source(source, "m.py")] == ["AG301"]


def test_no_staged_function_means_no_diagnostics():
    assert check_source(BUGGY.replace("@tf.function\n", ""), "m.py") == []


def test_columns_count_characters_not_bytes():
    source = BUGGY.replace("  return y\n", "  é = 'ü'; return y\n")
    d = check_source(source, "m.py", select={"AG101"})[0]
    assert (d.line, d.col) == (10, 19)


def test_byte_order_mark_and_crlf_and_tabs():
    source = "\ufeff" + BUGGY.replace("  ", "\t").replace("\n", "\r\n")
    assert [(d.line, d.col, d.code) for d in check_source(source, "m.py")] == [
        (8, 2, "AG201"), (9, 6, "AG301"), (10, 9, "AG101")]


def test_parsing_prints_no_warnings():
    source = 'x = "\\d"\nassert (x, 1)\nfunction = 1\n'
    r = subprocess.run([sys.executable, "-W", "default", "-c",
                        "import sys; from converters.check import check_source; "
                        "print(check_source(sys.stdin.read(), 'w.py'))"],
                       input=source, capture_output=True, text=True, cwd=ROOT, check=True)
    assert (r.stdout, r.stderr) == ("[]\n", "")


def test_output_does_not_depend_on_hash_seed():
    paths = [str(p) for p in CASE_FILES + SEED_OK]
    prog = (
        "import sys, json\n"
        "from converters.check import check_source\n"
        "print(json.dumps([[str(d) for d in check_source(open(p).read(), p, staged={'Model.step'})]"
        " for p in sys.argv[1:]]))\n"
    )
    outs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        r = subprocess.run([sys.executable, "-c", prog, *paths], capture_output=True, text=True, env=env,
                           cwd=ROOT, check=True)
        outs.add(r.stdout)
    assert len(outs) == 1
    assert any(json.loads(outs.pop()))


def test_codes_are_described_in_one_line():
    assert set(CODES) == {
        "AG101", "AG102", "AG103", "AG104", "AG105", "AG201", "AG202", "AG203", "AG204", "AG205",
        "AG301", "AG401", "AG402", "AG403", "AG404"}
    for code, text in CODES.items():
        assert re.fullmatch(r"AG\d{3}", code)
        assert text and "\n" not in text


def test_the_checker_imports_only_the_standard_library_and_converters():
    allowed = set(sys.stdlib_module_names) | {"converters", "__future__"}
    analysis = ROOT / "converters" / "analysis"
    ast_side = [analysis / f"{m}.py" for m in ("_walk", "_module", "_types", "_scope", "_unconvertible")]
    for path in sorted((ROOT / "converters" / "check").glob("*.py")) + ast_side:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                roots = [node.module.split(".")[0]]
            else:
                continue
            assert set(roots) <= allowed, (path.name, roots)


def test_public_names():
    import converters.check as check
    assert sorted(check.__all__) == ["CODES", "check_source"]


# -- bad input ---------------------------------------------------------------

@pytest.mark.parametrize("source, line, col, words", [
    ("def f(:\n  pass\n", 1, 7, "invalid syntax"),
    ("x = 1\n  y = 2\n", 2, None, "unexpected indent"),
    ("x = 1\0\n", 1, 1, "null bytes"),
    ("x = " + "(" * 300 + ")" * 300 + "\n", 1, None, "too many nested parentheses"),
    ("".join("  " * i + "if x:\n" for i in range(120)), None, None, "indentation"),
    ("y = " + "-" * 100_000 + "1\n", 1, 1, "nested too deeply"),
])
def test_bad_source_raises_a_located_conversion_error(source, line, col, words):
    with pytest.raises(ConversionError) as info:
        check_source(source, "bad.py")
    e = info.value
    assert e.filename == "bad.py" and e.line >= 1 and e.col >= 1
    if line is not None:
        assert e.line == line
    if col is not None:
        assert e.col == col
    assert words in e.message
    assert str(e).startswith(f"bad.py:{e.line}:{e.col}: ")


def test_deep_but_valid_expressions_are_checked():
    body = "+".join(["x"] * 2000)
    source = f"import autograph_cli.tf as tf\n@tf.function\ndef f(x):\n  if x > 0:\n    y = {body}\n  return y\n"
    assert [d.code for d in check_source(source, "deep.py")] == ["AG101"]


_SIMPLE = [
    "x = tf.constant(1)", "y = x + 1", "z = y * 2", "log.append(x)", "self.a = x", "v = tf.Variable(1.0)",
    "w = next(it)", "del y", "pass", "y = [t for t in range(3)]", "f(x)", "h = lambda: y", "x += y",
    "(q := x)", "return y", "return x", "tf.print(z)", "yield x", "print(locals())", "raise ValueError(x)",
]
_HEADS = [
    "if x > 0:", "if tf.equal(x, 0):", "if self.a is None:", "if not log:", "for i in range(3):",
    "for i in tf.range(n):", "while x > 0:", "while True:", "with tf.init_scope():", "try:", "match x:",
]


def _block(rng, depth: int, in_loop: bool) -> list[str]:
    """A random valid statement list built from the snippets above."""
    out: list[str] = []
    for _ in range(rng.randint(1, 4)):
        if depth < 4 and rng.random() < 0.35:
            head = rng.choice(_HEADS)
            sub = lambda loop=in_loop: ["  " + line for line in _block(rng, depth + 1, loop)]
            if head == "try:":
                out += [head, *sub(), "except ValueError as e:", *sub(), "finally:", *sub()]
            elif head == "match x:":
                out += [head, "  case 1:", *["  " + line for line in sub()],
                        "  case [a, *rest]:", *["  " + line for line in sub()]]
            else:
                loop = head.startswith(("for", "while"))
                out += [head, *sub(in_loop or loop)]
                if not head.startswith("with") and rng.random() < 0.4:
                    out += ["else:", *sub()]
        else:
            out.append(rng.choice(_SIMPLE + (["break", "continue"] if in_loop else [])))
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_random_valid_programs_give_sorted_deterministic_diagnostics(rng):
    body = "".join("  " + line + "\n" for line in _block(rng, 0, False))
    source = "import autograph_cli.tf as tf\nlog = []\n@tf.function\ndef f(self, x, n, it):\n" + body
    diags = check_source(source, "gen.py")
    assert diags == sorted(diags, key=lambda d: (d.line, d.col, d.code))
    assert all(d.code in CODES and 1 <= d.line <= source.count("\n") and d.col >= 1 for d in diags)
    assert check_source(source, "gen.py") == diags


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_diagnostics_or_a_conversion_error(text):
    try:
        check_source("import autograph_cli.tf as tf\n@tf.function\ndef f(x):\n" + text, "t.py")
    except ConversionError as e:
        assert e.filename == "t.py" and e.line >= 1 and e.col >= 1

"""CPython's own test suites, with the modules they test converted by the real
import hook (``install_import_hook`` before anything imports them).

Three interpreters run the same test modules: plain; through the hook with
a cold cache (converting imports, fast path); through the hook with the cache
warm (cached imports) and ``operators.force_functional(True)``, so that the
functional form -- not the user's own statements -- is what runs. Every test
that passes plain must pass in both hooked runs.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

# Pure-Python modules that nothing imports at interpreter start-up here (the
# hook can only convert a module on its first import), with fast test suites.
MODULES = [
    ("textwrap", "test.test_textwrap"),
    ("colorsys", "test.test_colorsys"),
    ("shlex", "test.test_shlex"),
    ("difflib", "test.test_difflib"),
    ("heapq", "test.test_heapq"),
    ("base64", "test.test_base64"),
    ("html", "test.test_html"),
    ("calendar", "test.test_calendar"),
    ("graphlib", "test.test_graphlib"),
    ("fractions", "test.test_fractions"),
    ("string", "test.test_string"),
    ("getopt", "test.test_getopt"),
]

RUNNER = textwrap.dedent('''\
    import importlib, json, sys, time
    mode, out = sys.argv[1], sys.argv[2]
    modules = json.loads(sys.argv[3])
    names = [m for m, _ in modules]
    already = [m for m in names if m in sys.modules]
    calls = {}
    if mode != "plain":
        import autograph_cli
        autograph_cli.install_import_hook(names)
        if mode == "forced":
            from autograph_cli import operators
            operators.force_functional(True)
            for op in ("if_stmt", "while_stmt", "for_stmt", "if_exp", "and_", "or_", "not_"):
                real = getattr(operators, op)
                def counted(*a, _real=real, _op=op, **k):
                    calls[_op] = calls.get(_op, 0) + 1
                    return _real(*a, **k)
                setattr(operators, op, counted)
    t0 = time.perf_counter()
    state = {}
    for m in names:
        mod = importlib.import_module(m)
        state[m] = [type(mod.__loader__).__name__, "ag__" in vars(mod)]
    import_time = time.perf_counter() - t0
    import io, unittest

    class Result(unittest.TestResult):
        def __init__(self):
            super().__init__()
            self.outcome = {}
        def addSuccess(self, test):
            self.outcome.setdefault(test.id(), "pass")
        def addFailure(self, test, err):
            self.outcome[test.id()] = "fail"
        def addError(self, test, err):
            self.outcome[test.id()] = "error"
        def addSkip(self, test, reason):
            self.outcome[test.id()] = "skip"
        def addExpectedFailure(self, test, err):
            self.outcome[test.id()] = "xfail"
        def addUnexpectedSuccess(self, test):
            self.outcome[test.id()] = "xpass"
        def addSubTest(self, test, subtest, err):
            if err is not None:
                self.outcome[test.id()] = "fail"

    outcomes = {}
    for m, t in modules:
        suite = unittest.defaultTestLoader.loadTestsFromName(t)
        result = Result()
        suite.run(result)
        outcomes[t] = result.outcome
    with open(out, "w") as f:
        json.dump({"already": already, "state": state, "outcomes": outcomes, "calls": calls,
                   "import_time": import_time}, f)
    ''')


def _run(tmp_path, mode, cache_prefix):
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    out = tmp_path / f"{mode}.json"
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # Converted bytecode goes to a private prefix, not into the stdlib's __pycache__.
    env["PYTHONPYCACHEPREFIX"] = str(cache_prefix)
    r = subprocess.run([sys.executable, str(runner), mode, str(out), json.dumps(MODULES)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and out.exists(), r.stdout[-3000:] + r.stderr[-3000:]
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stdlib_hook")
    prefix = tmp / "pycache"
    plain = _run(tmp, "plain", prefix)
    hooked = _run(tmp, "hooked", prefix)
    cached = list(prefix.rglob("*.autograph-*.pyc"))
    forced = _run(tmp, "forced", prefix)
    return plain, hooked, forced, cached


def test_modules_go_through_the_hook(runs):
    plain, hooked, forced, cached = runs
    assert plain["already"] == [] and hooked["already"] == []
    for m, _ in MODULES:
        assert plain["state"][m] == ["SourceFileLoader", False], m
    not_converted = [m for m, _ in MODULES if hooked["state"][m] != ["ConvertingLoader", True]
                     or forced["state"][m] != ["ConvertingLoader", True]]
    assert not_converted == []
    # The converting run cached every module; the forced run loaded the cache.
    assert len(cached) >= len(MODULES)


@pytest.mark.parametrize("mode", ["hooked", "forced"])
def test_every_passing_test_still_passes(runs, mode):
    plain, hooked, forced, _ = runs
    run = {"hooked": hooked, "forced": forced}[mode]
    total = 0
    broken = []
    for _, t in MODULES:
        passed = {k for k, v in plain["outcomes"][t].items() if v == "pass"}
        assert len(passed) >= 2, t
        total += len(passed)
        broken += [(k, run["outcomes"][t].get(k, "missing")) for k in sorted(passed)
                   if run["outcomes"][t].get(k) != "pass"]
    assert not broken, f"{len(broken)} of {total} passing tests broke ({mode}): {broken[:10]}"


def test_the_functional_form_really_ran(runs):
    _, _, forced, _ = runs
    calls = forced["calls"]
    assert calls.get("if_stmt", 0) > 1000 and calls.get("for_stmt", 0) > 100 and calls.get("while_stmt", 0) > 10, calls

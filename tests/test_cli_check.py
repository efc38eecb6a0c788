"""``autograph check`` on the command line: output formats, code selection,
exit codes, directories and stdin."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

_SCRIPT = Path(sys.executable).with_name("autograph")
AUTOGRAPH = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "autograph_cli"]
REPO = Path(__file__).resolve().parent.parent

PITFALLS = textwrap.dedent('''\
    import autograph_cli.tf as tf

    seen = []


    @tf.function
    def one_branch(x):
        if x > 0:
            y = x
        return y


    @tf.function
    def remember(x):
        seen.append(x)
        return x
    ''')

CLEAN = textwrap.dedent('''\
    import autograph_cli.tf as tf


    @tf.function
    def both(x):
        if x > 0:
            y = x
        else:
            y = -x
        return y


    def not_staged(x):
        if x > 0:
            y = x
        return y
    ''')


def run(*args, input=None):
    env = dict(os.environ)
    env.pop("PRE_COMMIT", None)
    return subprocess.run([*AUTOGRAPH, "check", *map(str, args)], input=input, env=env,
                          capture_output=True, text=True, timeout=120)


def test_reports_located_codes_and_exits_1(tmp_path):
    f = tmp_path / "pit.py"
    f.write_text(PITFALLS)
    r = run(f)
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    assert any(l.startswith(f"{f}:10:") and " AG101 " in l for l in lines), r.stdout
    assert any(l.startswith(f"{f}:15:") and " AG201 " in l for l in lines), r.stdout
    assert "Traceback" not in r.stderr


def test_clean_file_exits_0(tmp_path):
    f = tmp_path / "clean.py"
    f.write_text(CLEAN)
    r = run(f)
    assert (r.returncode, r.stdout) == (0, "")


def test_select_ignore_and_json(tmp_path):
    f = tmp_path / "pit.py"
    f.write_text(PITFALLS)
    r = run(f, "--format", "json")
    data = json.loads(r.stdout)
    assert r.returncode == 1
    assert {d["code"] for d in data} >= {"AG101", "AG201"}
    assert all(set(d) >= {"filename", "line", "col", "code", "message"} for d in data)
    r = run(f, "--select", "AG1", "--format", "json")
    assert {d["code"] for d in json.loads(r.stdout)} == {"AG101"}
    r = run(f, "--ignore", "AG101,AG2")
    assert (r.returncode, r.stdout) == (0, "")
    # the same from pyproject.toml
    (tmp_path / "pyproject.toml").write_text('[tool.autograph]\nignore = ["AG2"]\n')
    r = run(f)
    assert r.returncode == 1 and "AG201" not in r.stdout and "AG101" in r.stdout


def test_staged_option_names_more_functions(tmp_path):
    f = tmp_path / "plain.py"
    f.write_text(CLEAN)
    assert run(f).returncode == 0
    r = run(f, "--staged", "not_staged")
    assert r.returncode == 1 and " AG101 " in r.stdout


def test_directories_stdin_and_list_codes(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "pit.py").write_text(PITFALLS)
    (tmp_path / "a" / "clean.py").write_text(CLEAN)
    r = run(tmp_path, "-j", "2")
    assert r.returncode == 1 and "pit.py" in r.stdout and "clean.py" not in r.stdout
    r = run("-", input=PITFALLS)
    assert r.returncode == 1 and r.stdout.startswith("<stdin>:")
    r = run("--list-codes")
    assert r.returncode == 0 and "AG101" in r.stdout


def test_samples_only_the_deliberately_buggy_functions_are_reported():
    import ast

    r = run(REPO / "samples", "--format", "json")
    found = json.loads(r.stdout)
    assert r.returncode == (1 if found else 0), r.stderr
    buggy, reported = set(), set()
    for path in sorted((REPO / "samples").glob("*.py")):
        tree = ast.parse(path.read_text())
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        buggy |= {(path.name, f.name) for f in functions if f.name.startswith("buggy_")}
        for d in found:
            if Path(d["filename"]).name == path.name:
                (owner,) = [f.name for f in functions if f.lineno <= d["line"] <= f.end_lineno
                            and not any(g is not f and f.lineno < g.lineno <= d["line"] <= g.end_lineno for g in functions)]
                reported.add((path.name, owner))
    # Every function the samples call buggy (they raise the seeds' errors) is
    # reported; nothing else is.
    assert reported == buggy


def test_unreadable_input_wins_over_findings(tmp_path):
    f = tmp_path / "pit.py"
    f.write_text(PITFALLS)
    r = run(f, tmp_path / "missing.py")
    assert r.returncode == 2
    assert f"{tmp_path / 'missing.py'}:1:1: " in r.stderr
    assert " AG101 " in r.stdout

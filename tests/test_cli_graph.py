"""``autograph graph PATH::FUNC --arg SPEC``: traces with the numpy runtime
and shows the graph's tree (and Graphviz dot)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

_SCRIPT = Path(sys.executable).with_name("autograph")
AUTOGRAPH = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "autograph_cli"]
REPO = Path(__file__).resolve().parent.parent

PROGRAM = textwrap.dedent('''\
    import autograph_cli.tf as tf


    @tf.function
    def scaled_relu_sum(x, scale):
        total = tf.constant(0.0)
        for v in x:
            if v > 0:
                total += v * scale
        return total


    def one_branch(x):
        if x > 0:
            y = x
        return y


    def python_loop(x, n):
        for _ in range(n):
            x = x * 2
        return x


    class Model:
        def __init__(self):
            self.w = 3.0

        def call(self, x):
            return x * self.w
    ''')


def run(*args, cwd=None):
    env = dict(os.environ)
    env.pop("FORCE_COLOR", None)
    return subprocess.run([*AUTOGRAPH, *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_collatz_tree_shows_the_while_and_the_cond_inside_it(tmp_path):
    r = run("graph", f"{REPO / 'samples' / 'collatz.py'}::collatz", "--arg", "int32[]")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "collatz(x: int32[]) -> int32[]"
    text = r.stdout
    assert re.search(r"while = While\(.*\) : int32\[\], int32\[\]", text)
    assert "while_cond(" in text and "while_body(" in text
    assert "cond = If(" in text and "then" in text and "else" in text
    # the If sits inside the loop body: deeper indentation than the While
    depth = {name: next(len(l) - len(l.lstrip("│├└─ ")) for l in lines if f"{name} = " in l) for name in ("while", "cond")}
    assert depth["cond"] > depth["while"]
    assert "FloorDiv" in text and "FloorMod" in text
    assert lines[-1].startswith("20 nodes: ") or re.match(r"\d+ nodes: ", lines[-1])
    assert "\x1b[" not in text


def test_python_literals_and_unrolled_python_loops(tmp_path):
    f = tmp_path / "prog.py"
    f.write_text(PROGRAM)
    r = run("graph", f"{f}::python_loop", "--arg", "float32[2,2]", "--arg", "3")
    assert r.returncode == 0, r.stderr
    # range(3) on a Python int is a Python loop: three multiplications, no While
    assert r.stdout.count(" = Mul(") == 3 and "While" not in r.stdout
    assert r.stdout.splitlines()[0] == "python_loop(x: float32[2,2]) -> float32[2,2]"


def test_a_file_without_the_py_suffix_is_python_source_as_for_python(tmp_path):
    f = tmp_path / "tool"  # (a script as installed in bin/: `python tool` runs it)
    f.write_text(PROGRAM)
    r = run("graph", f"{f}::python_loop", "--arg", "float32[2]", "--arg", "1")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.splitlines()[0] == "python_loop(x: float32[2]) -> float32[2]" and " = Mul(" in r.stdout


def test_tf_function_methods_and_dot(tmp_path):
    f = tmp_path / "prog.py"
    f.write_text(PROGRAM)
    dot = tmp_path / "g.dot"
    r = run("graph", f"{f}::scaled_relu_sum", "--arg", "float32[None]", "--arg", "2.0", "--dot", dot)
    assert r.returncode == 0, r.stderr
    assert "For(" in r.stdout and "If(" in r.stdout
    text = dot.read_text()
    assert text.startswith('digraph "scaled_relu_sum" {') and text.rstrip().endswith("}")
    assert text.count("{") == text.count("}")
    declared = set(re.findall(r"^\s*(\w+) \[label=", text, re.M))
    for a, b in re.findall(r"^\s*(\w+) -> (\w+)", text, re.M):
        assert a in declared and b in declared, (a, b)
    assert "subgraph cluster_" in text
    r = run("graph", f"{f}::Model.call", "--arg", "float32[3]")
    assert r.returncode == 0, r.stderr
    assert "Const(3.0)" in r.stdout and "Mul(" in r.stdout


def test_errors_are_one_located_line(tmp_path):
    f = tmp_path / "prog.py"
    f.write_text(PROGRAM)
    cases = [
        ((f"{f}::one_branch", "--arg", "int32[]"), f"{f}:14:"),  # the seeds' error, at the user's line
        ((f"{f}::missing",), f"{f}:1:1: "),
        ((f"{f}::one_branch", "--arg", "int32[x]"), f"{f}:1:1: "),
        ((f"{f}::one_branch", "--arg", "nonsense["), f"{f}:1:1: "),
        ((f"{tmp_path / 'nope.py'}::f",), f"{tmp_path / 'nope.py'}:1:1: "),
        ((str(f),), f"{f}:1:1: "),
    ]
    for args, prefix in cases:
        r = run("graph", *args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert r.stderr.startswith(prefix), (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    r = run("graph", f"{f}::one_branch", "--arg", "int32[]")
    assert "'y'" in r.stderr
    # an unwritable --dot target: the write fails located, before any output
    (tmp_path / "blocker").write_text("a file, not a directory")
    r = run("graph", f"{f}::python_loop", "--arg", "float32[2]", "--arg", "1", "--dot", tmp_path / "blocker" / "g.dot")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == f"{tmp_path / 'blocker' / 'g.dot'}:1:1: cannot write: {tmp_path / 'blocker'} is not a directory\n"
    r = run("graph", f"{f}::python_loop", "--arg", "float32[2]", "--arg", "1", "--dot", tmp_path)
    assert (r.returncode, r.stderr) == (2, f"{tmp_path}:1:1: --dot needs a file; this is a directory\n")


def test_a_module_that_exits_while_imported_is_one_located_line(tmp_path):
    f = tmp_path / "exits.py"
    f.write_text(PROGRAM + "\nimport sys\nsys.exit(3)\n")
    r = run("graph", f"{f}::scaled_relu_sum", "--arg", "float32[None]", "--arg", "2.0")
    line = PROGRAM.count("\n") + 3
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == f"{f}:{line}:1: importing it exited (SystemExit: 3)\n"

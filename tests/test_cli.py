"""The ``autograph`` command line, driven as a user drives it: subprocess runs
of the installed console script (and ``python -m autograph_cli``) on real
files, checking output, written files and exit codes."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples"
_SCRIPT = Path(sys.executable).with_name("autograph")
AUTOGRAPH = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "autograph_cli"]


def run(*args, cwd=None, input=None, env=None):
    full_env = dict(os.environ)
    full_env.pop("FORCE_COLOR", None)
    full_env.pop("PRE_COMMIT", None)
    full_env.update(env or {})
    return subprocess.run([*AUTOGRAPH, *map(str, args)], cwd=cwd, input=input, env=full_env,
                          capture_output=True, text=True, timeout=120)


def assert_one_located_line(stderr: str, path: str):
    lines = [l for l in stderr.splitlines() if l.strip()]
    located = [l for l in lines if l.startswith(f"{path}:")]
    assert located, stderr
    assert "Traceback" not in stderr
    head = located[0][len(path) + 1:].split(":", 2)
    assert head[0].isdigit() and head[1].isdigit(), located[0]
    return located[0]


LOOPY = textwrap.dedent('''\
    """A module with control flow."""
    # a comment that must survive


    def count_up(n):
        total = 0
        for i in range(n):
            if i % 2:
                continue
            total += i
        return total


    def first_neg(xs):
        for i, x in enumerate(xs):
            if x < 0:
                return i
        return -1
    ''')


# A function the converter leaves as it is (and says why).
LEFT_AS_IS = "def g(n):\n    for i in range(n):\n        if i > 2:\n            return locals()\n    return None\n"


def run_module_file(path: Path, expr: str) -> str:
    out = subprocess.run([sys.executable, "-c", f"import runpy; g = runpy.run_path({str(path)!r}); print(repr(({expr})))"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


# -- to-code ----------------------------------------------------------------------


def test_to_code_prints_functional_form_plain_when_piped(tmp_path):
    f = tmp_path / "m.py"
    f.write_text(LOOPY)
    r = run("to-code", f)
    assert r.returncode == 0, r.stderr
    assert "\x1b[" not in r.stdout
    assert "ag__.for_stmt(" in r.stdout and "ag__.if_stmt(" in r.stdout
    assert "# a comment that must survive" in r.stdout
    assert "if not ag__.fast" not in r.stdout  # the functional form alone
    compile(r.stdout, "out", "exec")


def test_to_code_one_function_and_stdin(tmp_path):
    r = run("to-code", "-", "--function", "first_neg", input=LOOPY)
    assert r.returncode == 0, r.stderr
    assert "def first_neg" in r.stdout and "def count_up" not in r.stdout
    r = run("to-code", "-", "--function", "nope", input=LOOPY)
    assert r.returncode == 2
    assert_one_located_line(r.stderr, "<stdin>")


def test_to_code_colour_forced_and_no_color_wins(tmp_path):
    f = tmp_path / "m.py"
    f.write_text(LOOPY)
    r = run("--color", "to-code", f)
    assert r.returncode == 0 and "\x1b[" in r.stdout
    r = run("to-code", f, env={"FORCE_COLOR": "1"})
    assert "\x1b[" in r.stdout
    r = run("to-code", f, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in r.stdout


def test_python_dash_m_works(tmp_path):
    f = tmp_path / "m.py"
    f.write_text(LOOPY)
    r = subprocess.run([sys.executable, "-m", "autograph_cli", "to-code", str(f)], capture_output=True, text=True)
    assert r.returncode == 0 and "ag__.for_stmt(" in r.stdout
    r = subprocess.run([sys.executable, "-m", "autograph_cli", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("autograph")


def test_help_does_not_import_heavy_modules():
    code = ("import sys; from autograph_cli.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('libcst', 'numpy', 'rich', 'converters') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip().endswith("[]"), r.stdout + r.stderr


def test_to_code_strict_exits_1_when_something_is_left(tmp_path):
    f = tmp_path / "gen.py"
    f.write_text(LEFT_AS_IS)
    assert run("to-code", f).returncode == 0
    r = run("to-code", "--strict", f)
    assert r.returncode == 1
    assert f"{f}:1:" in r.stderr and "g" in r.stderr


# -- convert ----------------------------------------------------------------------


def _tree(tmp_path):
    src = tmp_path / "src"
    (src / "pkg" / "sub").mkdir(parents=True)
    (src / "top.py").write_text(LOOPY)
    (src / "pkg" / "__init__.py").write_text("")
    (src / "pkg" / "sub" / "deep.py").write_text(LOOPY.replace("count_up", "count_deep"))
    return src


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_convert_to_dir_keeps_structure_and_runs(tmp_path, jobs):
    src = _tree(tmp_path)
    out = tmp_path / "out"
    r = run("convert", src / "top.py", src / "pkg", "-o", out, "-j", jobs)
    assert r.returncode == 0, r.stderr
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.py"))
    assert written == ["pkg/__init__.py", "pkg/sub/deep.py", "top.py"]
    text = (out / "top.py").read_text()
    assert "ag__.for_stmt(" in text and "from autograph_cli import operators as ag__" in text
    # The written module runs on its own, with the original's results.
    assert run_module_file(out / "top.py", "g['count_up'](10), g['first_neg']([3, -1])") == "(20, 1)\n"
    assert run_module_file(src / "top.py", "g['count_up'](10), g['first_neg']([3, -1])") == "(20, 1)\n"
    # Sources untouched.
    assert (src / "top.py").read_text() == LOOPY


CELLS = textwrap.dedent('''\
    import sys


    def total(n):
        s = 0
        for i in range(n):
            if i % 2:
                s += i
        return s


    FLAG = False
    if not FLAG:
        def make(k):
            if k:
                def inner():
                    return k
            else:
                def inner():
                    return -k
            return inner


    class Base:
        def name(self):
            return "base"


    class K(Base):
        def __init__(self):
            self.__hidden = 3

        def m(self, n):
            while n > 0:
                n -= self.__hidden
            return n, super().name(), sys._getframe(0).f_code.co_name
    ''')


def test_convert_output_keeps_the_users_locals_fast(tmp_path):
    """A written file's functions run their own statements with plain fast
    locals (no closure cells: each functional form is a def of its own
    beside the function), on Python values and in the functional form,
    with Python's names; converting the output again changes nothing."""
    (tmp_path / "cells.py").write_text(CELLS)
    out = tmp_path / "out"
    r = run("convert", tmp_path / "cells.py", "-o", out)
    assert r.returncode == 0, r.stderr
    text = (out / "cells.py").read_text()
    assert "def __ag_functional__total__4__(n):" in text and "if not ag__.fast:" in text
    probe = textwrap.dedent('''\
        import sys
        sys.path.insert(0, sys.argv[1])
        import cells
        from autograph_cli import operators
        def results():
            return (cells.total(7), cells.make(2)(), cells.make(0).__qualname__, cells.K().m(7))
        print(cells.total.__code__.co_cellvars, cells.K.m.__code__.co_cellvars)
        print(results())
        operators.force_functional(True)
        print(results())
        print(cells.__ag_functional__total__4__.__qualname__)
        ''')
    got = subprocess.run([sys.executable, "-c", probe, str(out)], capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    expected = "(-2, 'base', 'm')"
    assert got.stdout.splitlines() == [
        "() ()",
        f"(9, 2, 'make.<locals>.inner', {expected})",
        f"(9, 2, 'make.<locals>.inner', {expected})",
        "total",
    ]
    again = tmp_path / "again"
    r = run("convert", out / "cells.py", "-o", again)
    assert r.returncode == 0, r.stderr
    assert (again / "cells.py").read_text() == text


def test_convert_report_json(tmp_path):
    src = _tree(tmp_path)
    (src / "gen.py").write_text(LEFT_AS_IS)
    r = run("convert", src, "-o", tmp_path / "out", "--report", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    by_path = {Path(f["path"]).name: f for f in data["files"]}
    assert {f["qualname"] for f in by_path["top.py"]["functions"]} == {"count_up", "first_neg"}
    assert all(f["converted"] for f in by_path["top.py"]["functions"])
    (g,) = by_path["gen.py"]["functions"]
    assert g["converted"] is False and g["reason"]
    assert data["summary"]["functions_left"] == 1 and data["errors"] == []
    assert {f["status"] for f in data["files"]} == {"written"}
    # a second run writes nothing: each file's status says so
    r = run("convert", src, "-o", tmp_path / "out", "--report", "json")
    assert {f["status"] for f in json.loads(r.stdout)["files"]} == {"unchanged"}
    r = run("convert", src, "--check", "--report", "json")
    assert r.returncode == 1
    assert {Path(f["path"]).name: f["status"] for f in json.loads(r.stdout)["files"]}["top.py"] == "would_change"
    r = run("convert", src, tmp_path / "missing.py", "-o", tmp_path / "out3", "--report", "json")
    assert r.returncode == 2
    assert json.loads(r.stdout)["errors"] == [f"{tmp_path / 'missing.py'}:1:1: no such file or directory"]
    # --strict turns what was left into exit 1, each listed as a located line.
    r = run("convert", src, "-o", tmp_path / "out2", "--strict")
    assert r.returncode == 1
    assert f"{src / 'gen.py'}:1:" in r.stderr


def test_convert_in_place_check_diff_cycle(tmp_path):
    src = _tree(tmp_path)
    top = src / "top.py"
    r = run("convert", "--check", src)
    assert r.returncode == 1 and "would convert" in r.stderr
    assert top.read_text() == LOOPY
    r = run("convert", "--diff", top)
    assert r.returncode == 0
    assert r.stdout.startswith(f"--- {top}\t(original)\n+++ {top}\t(converted)\n")
    assert "\n+" in r.stdout and "\x1b[" not in r.stdout
    assert top.read_text() == LOOPY
    r = run("--color", "convert", "--diff", top)
    assert "\x1b[32m+" in r.stdout
    r = run("convert", "--check", "--diff", top)
    assert r.returncode == 1
    r = run("convert", "--in-place", src)
    assert r.returncode == 0, r.stderr
    converted = top.read_text()
    assert converted != LOOPY and "ag__.for_stmt(" in converted
    # Converted files are stable: a second run changes nothing.
    r = run("convert", "--check", src)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run("convert", "--in-place", src)
    assert r.returncode == 0 and top.read_text() == converted
    assert run_module_file(top, "g['count_up'](9), g['first_neg']([1, 2])") == "(20, -1)\n"


def test_convert_check_against_output_dir(tmp_path):
    src = _tree(tmp_path)
    out = tmp_path / "out"
    assert run("convert", src, "-o", out).returncode == 0
    assert run("convert", src, "-o", out, "--check").returncode == 0
    (src / "top.py").write_text(LOOPY + "\n\ndef more(x):\n    while x > 0:\n        x -= 1\n    return x\n")
    r = run("convert", src, "-o", out, "--check")
    assert r.returncode == 1 and "top.py" in r.stderr


def test_convert_stdin_to_stdout():
    r = run("convert", "-", input=LOOPY)
    assert r.returncode == 0, r.stderr
    assert "if not ag__.fast" in r.stdout  # the dual form that runs
    assert "from autograph_cli import operators as ag__" in r.stdout
    r = run("convert", "-", input="def f(:\n")
    assert r.returncode == 2
    assert_one_located_line(r.stderr, "<stdin>")


def test_convert_needs_a_destination(tmp_path):
    f = tmp_path / "m.py"
    f.write_text(LOOPY)
    r = run("convert", f)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    r = run("convert", f, "--in-place", "-o", tmp_path / "o")
    assert r.returncode == 2


def test_convert_refuses_to_overwrite_inputs_through_o(tmp_path):
    src = _tree(tmp_path)
    r = run("convert", src, "-o", src)
    assert r.returncode == 2
    assert (src / "top.py").read_text() == LOOPY


# -- discovery and configuration -------------------------------------------------------


def test_gitignore_and_exclude_are_honoured(tmp_path):
    proj = tmp_path / "proj"
    (proj / "keep").mkdir(parents=True)
    (proj / "generated").mkdir()
    (proj / "keep" / "vendored").mkdir()
    (proj / ".venv" / "lib").mkdir(parents=True)
    for p in ["a.py", "keep/b.py", "generated/c.py", "keep/vendored/d.py", "keep/skip_me.py", ".venv/lib/e.py",
              "keep/important_skip_me.py"]:
        (proj / p).write_text(LOOPY)
    (proj / ".git").mkdir()
    (proj / ".gitignore").write_text("generated/\n*skip_me.py\n!important_skip_me.py\n")
    r = run("convert", proj, "-o", tmp_path / "out", "--exclude", "vendored")
    assert r.returncode == 0, r.stderr
    got = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.py"))
    assert got == ["a.py", "keep/b.py", "keep/important_skip_me.py"]
    # A file named explicitly is always taken.
    r = run("convert", "--check", proj / "generated" / "c.py")
    assert r.returncode == 1
    r = run("convert", proj, "-o", tmp_path / "out2", "--no-gitignore")
    got = sorted(p.relative_to(tmp_path / "out2").as_posix() for p in (tmp_path / "out2").rglob("*.py"))
    assert "generated/c.py" in got and ".venv/lib/e.py" not in got


def test_pyproject_defaults_and_command_line_wins(tmp_path):
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    (proj / "pkg" / "gen.py").write_text(LEFT_AS_IS)
    (proj / "pkg" / "ok.py").write_text(LOOPY)
    (proj / "pkg" / "legacy.py").write_text(LOOPY)
    (proj / "pyproject.toml").write_text('[tool.autograph]\nstrict = true\nexclude = ["legacy.py"]\njobs = 2\n')
    r = run("convert", proj / "pkg", "-o", tmp_path / "out")
    assert r.returncode == 1  # strict from the file
    assert not (tmp_path / "out" / "legacy.py").exists()
    assert (tmp_path / "out" / "ok.py").exists()
    r = run("convert", proj / "pkg", "-o", tmp_path / "out", "--exclude", "gen.py")
    assert r.returncode == 0, r.stderr  # the option replaces the file's exclude
    assert (tmp_path / "out" / "legacy.py").exists()


def test_bad_pyproject_is_one_located_line(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.autograph]\nstrict = \n")
    (tmp_path / "m.py").write_text(LOOPY)
    r = run("convert", "--check", tmp_path / "m.py")
    assert r.returncode == 2
    line = assert_one_located_line(r.stderr, str(tmp_path / "pyproject.toml"))
    assert ":2:" in line
    (tmp_path / "pyproject.toml").write_text('[tool.autograph]\njobs = "many"\n')
    r = run("convert", "--check", tmp_path / "m.py")
    assert r.returncode == 2 and "jobs" in r.stderr


# -- bad input ----------------------------------------------------------------------


def _bad_inputs(tmp_path):
    cases = {}
    p = tmp_path / "syntax.py"
    p.write_text("def f(x):\n    return x +\n")
    cases["syntax"] = (p, ":2:")
    p = tmp_path / "binary.py"
    p.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00")
    cases["binary"] = (p, ":1:")
    p = tmp_path / "latin1.py"
    p.write_bytes(b"x = 1\ns = '\xe9t\xe9'\n")
    cases["not utf-8"] = (p, ":2:")
    p = tmp_path / "deep_parens.py"
    p.write_text("x = " + "(" * 6000 + "1" + ")" * 6000 + "\n")
    cases["deep parens"] = (p, ":1:")
    p = tmp_path / "deep_expr.py"
    p.write_text("x = " + "+".join(["a"] * 8000) + "\n")
    cases["deep expression"] = (p, ":1:")
    p = tmp_path / "deep_blocks.py"
    p.write_text("def f(x):\n" + "".join("    " * (i + 1) + "if x:\n" for i in range(120)) + "    " * 121 + "pass\n")
    cases["deep blocks"] = (p, ":")
    p = tmp_path / "compile_error.py"  # parses, but Python's compiler rejects it
    p.write_text("def f(x):\n    if x:\n        return 1\n    break\n")
    cases["compile error"] = (p, ":4:5: syntax error: 'break' outside loop")
    p = tmp_path / "nonlocal_error.py"
    p.write_text("def f(x):\n    nonlocal y\n    while x:\n        x -= 1\n    return x\n")
    cases["nonlocal without a binding"] = (p, ":2:5: syntax error: no binding for nonlocal 'y' found")
    cases["missing"] = (tmp_path / "missing.py", ":1:1:")
    return cases


@pytest.mark.parametrize("command", ["to-code", "convert --check", "convert --in-place", "check"])
def test_bad_input_is_one_located_line_and_exit_2(tmp_path, command):
    for name, (path, where) in _bad_inputs(tmp_path).items():
        before = path.read_bytes() if path.exists() else None
        r = run(*command.split(), path)
        assert r.returncode == 2, (name, r.stdout, r.stderr)
        line = assert_one_located_line(r.stderr, str(path))
        assert where in line, (name, line)
        assert r.returncode != -11
        if before is not None:
            assert path.read_bytes() == before, name


def test_one_bad_file_does_not_stop_or_touch_the_others(tmp_path):
    src = _tree(tmp_path)
    (src / "broken.py").write_text("def f(:\n")
    r = run("convert", "--in-place", src, "-j", "2")
    assert r.returncode == 2
    assert_one_located_line(r.stderr, str(src / "broken.py"))
    assert (src / "broken.py").read_text() == "def f(:\n"
    assert "ag__" in (src / "top.py").read_text()  # the good files were converted


def test_unwritable_output(tmp_path):
    src = _tree(tmp_path)
    blocker = tmp_path / "out"
    blocker.write_text("a file where the output directory should be")
    r = run("convert", src / "top.py", "-o", blocker)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    # A file in the way of a nested output directory: located on the output path.
    out = tmp_path / "out2"
    out.mkdir()
    (out / "pkg").write_text("in the way")
    r = run("convert", src, "-o", out)
    assert r.returncode == 2
    assert_one_located_line(r.stderr, str(out / "pkg" / "sub" / "deep.py"))
    assert (out / "top.py").exists()


def test_in_place_preserves_encoding_bom_and_mode(tmp_path):
    f = tmp_path / "enc.py"
    body = "# -*- coding: latin-1 -*-\n" + LOOPY + "\nNAME = 'caf\xe9'\n"
    f.write_bytes(body.encode("latin-1"))
    os.chmod(f, 0o640)
    g = tmp_path / "bom.py"
    g.write_bytes(b"\xef\xbb\xbf" + LOOPY.encode())
    r = run("convert", "--in-place", f, g)
    assert r.returncode == 0, r.stderr
    data = f.read_bytes()
    assert b"caf\xe9" in data and b"ag__" in data
    assert (os.stat(f).st_mode & 0o777) == 0o640
    assert g.read_bytes().startswith(b"\xef\xbb\xbf")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".autograph-")]


def test_in_place_keeps_a_shebang_and_a_coding_line_first(tmp_path):
    script = tmp_path / "tool.py"
    body = "#!/usr/bin/env python3\n# -*- coding: latin-1 -*-\nNAME = 'caf\xe9'\n" + LOOPY.split('"""', 2)[2]
    body += "\nprint(NAME, count_up(6), first_neg([1, -2]))\n"
    script.write_bytes(body.encode("latin-1"))
    os.chmod(script, 0o755)
    r = run("convert", "--in-place", script)
    assert r.returncode == 0, r.stderr
    lines = script.read_bytes().decode("latin-1").splitlines()
    assert lines[:2] == ["#!/usr/bin/env python3", "# -*- coding: latin-1 -*-"]
    assert "from autograph_cli import operators as ag__" in lines and "ag__.fast" in "\n".join(lines)
    out = subprocess.run([str(script)], capture_output=True, text=True, encoding="utf-8",
                         env={**os.environ, "PYTHONIOENCODING": "utf-8",
                              "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"})
    assert (out.returncode, out.stdout) == (0, "caf\xe9 6 1\n"), out.stderr


def test_in_place_through_a_symlink_updates_its_target(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    target = real / "mod.py"
    target.write_text(LOOPY)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    r = run("convert", "--in-place", link)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert "ag__" in target.read_text()


def test_an_output_directory_inside_the_input_is_not_input(tmp_path):
    src = _tree(tmp_path)
    for _ in range(2):
        r = run("convert", ".", "-o", "out", cwd=src)
        assert r.returncode == 0, r.stderr
    made = sorted(str(p.relative_to(src / "out")) for p in (src / "out").rglob("*.py"))
    assert made and not any(m.startswith("out") for m in made), made


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_pipe_named_on_purpose_is_read_and_never_hangs(tmp_path):
    fifo = tmp_path / "p.py"
    os.mkfifo(fifo)
    # No writer at all: an empty module, at once (not a wait for a writer).
    r = run("check", fifo)
    assert (r.returncode, r.stderr) == (0, "")
    # A pipe with a writer, as bash's `<(cat m.py)` makes one: read to its end.
    module = tmp_path / "m.py"
    module.write_text(LOOPY)
    command = " ".join(f"'{a}'" for a in AUTOGRAPH)
    r = subprocess.run(["bash", "-c", f"{command} to-code <(cat '{module}')"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "ag__.for_stmt(" in r.stdout, r.stderr
    # A FIFO is never replaced by a file (here: where -o would write).
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "m.py")
    r = run("convert", module, "-o", out)
    assert r.returncode == 2 and r.stderr.startswith(f"{out / 'm.py'}:1:1: cannot write: not a regular file")
    assert (out / "m.py").is_fifo()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_a_directory_is_skipped(tmp_path):
    src = _tree(tmp_path)
    os.mkfifo(src / "pipe.py")
    for args in (["check", src], ["convert", "--check", src]):
        r = run(*args)
        assert r.returncode in (0, 1), (args, r.stderr)
        assert "pipe.py" not in r.stdout + r.stderr


def test_option_values_that_make_no_sense_are_one_line_and_exit_2(tmp_path):
    f = tmp_path / "m.py"
    f.write_text(LOOPY)
    r = run("check", "--select", "XYZ", f)
    assert (r.returncode, r.stderr) == (2, "autograph: --select: unknown code XYZ (autograph check --list-codes shows them)\n")
    assert run("check", "--select", "AG2", "--ignore", "AG101", f).returncode == 0  # prefixes and codes
    (tmp_path / "afile").write_text("x")
    r = run("convert", f, "-o", tmp_path / "afile")
    assert (r.returncode, r.stderr) == (2, f"{tmp_path / 'afile'}:1:1: -o needs a directory; this is a file\n")
    (tmp_path / "pyproject.toml").write_text("[tool.autograph]\njobs = 0\n")
    r = run("check", f)
    assert r.returncode == 2 and r.stderr.endswith("tool.autograph.jobs must be at least 1, not 0\n")


def test_unknown_command_and_option_exit_2():
    assert run("frobnicate").returncode == 2
    assert run("convert", "--frob", "x.py").returncode == 2


# -- on a terminal ------------------------------------------------------------------


def run_on_tty(*args, env=None):
    """Run with stdin/stdout/stderr on a pseudo-terminal; returns (rc, output)."""
    import pty
    import select

    full_env = dict(os.environ)
    for k in ("NO_COLOR", "FORCE_COLOR", "PRE_COMMIT"):
        full_env.pop(k, None)
    full_env["TERM"] = "xterm"
    full_env.update(env or {})
    master, slave = pty.openpty()
    proc = subprocess.Popen([*AUTOGRAPH, *map(str, args)], stdin=slave, stdout=slave, stderr=slave,
                            env=full_env, close_fds=True)
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(master)
    return proc.returncode, out.decode(errors="replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_terminal_gets_colour_and_a_progress_bar_unless_told_otherwise(tmp_path):
    for i in range(20):
        (tmp_path / f"m{i:02}.py").write_text(LOOPY)
    rc, out = run_on_tty("convert", "--check", tmp_path)
    assert rc == 1
    assert "converting" in out and "━" in out  # rich's bar, on stderr
    rc, out = run_on_tty("convert", "--check", tmp_path, env={"PRE_COMMIT": "1"})
    assert rc == 1 and "converting" not in out and "━" not in out
    rc, out = run_on_tty("convert", "--check", "--no-progress", tmp_path)
    assert "━" not in out
    rc, out = run_on_tty("to-code", tmp_path / "m00.py")
    assert rc == 0 and "\x1b[" in out
    rc, out = run_on_tty("to-code", tmp_path / "m00.py", env={"NO_COLOR": "1"})
    assert rc == 0 and "\x1b[" not in out and "ag__.for_stmt(" in out
    rc, out = run_on_tty("convert", "--diff", tmp_path / "m00.py", env={"NO_COLOR": "1"})
    assert "\x1b[3" not in out and "+++ " in out
    rc, out = run_on_tty("convert", "--diff", tmp_path / "m00.py")
    assert "\x1b[32m+" in out


def test_in_place_never_writes_code_that_does_not_compile(tmp_path, monkeypatch):
    # A converter bug (simulated) must not reach the user's file.
    import converters
    from click.testing import CliRunner

    from autograph_cli.cli import cli

    real = converters.convert

    def broken(source, **kw):
        result = real(source, **kw)
        result.code = re.sub(r"(?m)^( *)total = 0$", r"\1total = 0\n\1break", result.code, count=1)
        return result

    monkeypatch.setattr(converters, "convert", broken)
    f = tmp_path / "m.py"
    f.write_text(LOOPY)
    r = CliRunner().invoke(cli, ["convert", "--in-place", "-j", "1", str(f)])
    assert r.exit_code == 2
    # located in the user's function the broken code came from (count_up, lines 5-11)
    m = re.match(rf"^{re.escape(str(f))}:(\d+):1: internal error: the converted code does not compile", r.output)
    assert m and 5 <= int(m.group(1)) <= 11, r.output
    assert f.read_text() == LOOPY

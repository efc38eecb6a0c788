"""Front-door defects a new user hits (issue 13): each test failed before its fix."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path


from test_cli import LOOPY, REPO, assert_one_located_line, run


def test_to_code_of_a_directory_is_one_located_line(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.py").write_text(LOOPY)
    r = run("to-code", d)
    assert r.returncode == 2
    line = assert_one_located_line(r.stderr, str(d))
    assert "is a directory" in line and "internal error" not in r.stderr


def test_to_code_of_a_lambda_defined_in_a_file():
    import autograph_cli

    f = lambda x: x if x > 0 else -x  # noqa: E731
    code = autograph_cli.to_code(f)
    assert "ag__.if_exp(" in code and "def " in code
    compile(code, "<to_code>", "exec")


def test_run_warns_about_a_convert_name_never_imported(tmp_path):
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("X = 1\n")
    (tmp_path / "other.py").write_text("Y = 2\n")
    (tmp_path / "train.py").write_text("import mypkg\nprint(mypkg.X)\n")
    r = run("run", "--convert", "typo_pkg", "--convert", "other", "--convert", "mypkg", "train.py", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == "1\n", r.stderr
    lines = r.stderr.splitlines()
    assert [l for l in lines if "typo_pkg" in l] == [
        "autograph: warning: --convert typo_pkg: no such module; nothing of it was converted"]
    assert [l for l in lines if "other" in l] == [
        "autograph: warning: --convert other: never imported by the program; nothing of it was converted"]
    assert not any("mypkg" in l for l in lines)


def test_version_is_declared_once_and_the_snippet_names_its_tag():
    import configparser
    import re

    import autograph_cli

    cfg = configparser.ConfigParser()
    cfg.read(REPO / "setup.cfg")
    assert cfg["metadata"]["version"] == "attr: autograph_cli.__version__"
    readme = (REPO / "README.md").read_text()
    revs = re.findall(r"^\s+rev: (\S+)", readme, re.M)
    assert revs == [f"v{autograph_cli.__version__}"]
    hooks = (REPO / ".pre-commit-hooks.yaml").read_text()
    assert f"rev: v{autograph_cli.__version__}" in hooks and "<tag" not in hooks


def _py_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))


def test_output_layout_does_not_depend_on_which_files_sit_beside(tmp_path):
    src = tmp_path / "src"
    (src / "mypkg").mkdir(parents=True)
    (src / "mypkg" / "__init__.py").write_text("")
    (src / "mypkg" / "a.py").write_text(LOOPY)
    # src/ holding a single package: the package keeps its directory.
    r = run("convert", src, "-o", tmp_path / "out1")
    assert r.returncode == 0, r.stderr
    assert _py_files(tmp_path / "out1") == ["mypkg/__init__.py", "mypkg/a.py"]
    # The package named directly: the same layout.
    r = run("convert", src / "mypkg", "-o", tmp_path / "out2")
    assert r.returncode == 0, r.stderr
    assert _py_files(tmp_path / "out2") == ["mypkg/__init__.py", "mypkg/a.py"]
    # A file beside the package changes nothing for the package.
    (src / "tool.py").write_text(LOOPY)
    r = run("convert", str(src) + os.sep, "-o", tmp_path / "out3")
    assert r.returncode == 0, r.stderr
    assert _py_files(tmp_path / "out3") == ["mypkg/__init__.py", "mypkg/a.py", "tool.py"]
    # The converted package imports under its name.
    probe = "import sys; sys.path.insert(0, sys.argv[1]); import mypkg.a; print(mypkg.a.count_up(10))"
    p = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "out1")], capture_output=True, text=True)
    assert p.stdout == "20\n", p.stderr
    # Two inputs that would land on one output: one located line each, nothing overwritten silently.
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "tool.py").write_text(LOOPY)
    r = run("convert", src / "tool.py", tmp_path / "b" / "tool.py", "-o", tmp_path / "out4")
    assert r.returncode == 2 and f"{tmp_path / 'b' / 'tool.py'}:1:1: -o would write" in r.stderr


def test_default_excludes_are_visible_overridable_and_never_inside_packages(tmp_path):
    proj = tmp_path / "proj"
    for p in ["app.py", "build/lib/old.py", "venv/lib/site.py", "mypkg/__init__.py", "mypkg/build/gen.py",
              "mypkg/dist/__init__.py"]:
        (proj / p).parent.mkdir(parents=True, exist_ok=True)
        (proj / p).write_text(LOOPY)
    r = run("convert", proj, "-o", tmp_path / "out", "--no-gitignore")
    assert r.returncode == 0, r.stderr
    assert _py_files(tmp_path / "out") == ["app.py", "mypkg/__init__.py", "mypkg/build/gen.py",
                                           "mypkg/dist/__init__.py"]
    assert "2 path(s) skipped (-v lists them)" in r.stderr
    r = run("convert", proj, "--check", "-v")
    assert f"autograph: skipped {proj / 'build'}{os.sep} (default exclude)" in r.stderr
    assert f"autograph: skipped {proj / 'venv'}{os.sep} (default exclude)" in r.stderr
    r = run("check", proj, "-v")
    assert f"autograph: skipped {proj / 'build'}{os.sep} (default exclude)" in r.stderr
    r = run("convert", proj, "-o", tmp_path / "out2", "--no-default-excludes")
    assert r.returncode == 0, r.stderr
    assert "build/lib/old.py" in _py_files(tmp_path / "out2") and "skipped" not in r.stderr
    # pyproject: default-excludes = false, extend-exclude adds patterns.
    (proj / "pyproject.toml").write_text('[tool.autograph]\ndefault-excludes = false\nextend-exclude = ["venv"]\n')
    r = run("convert", proj, "-o", tmp_path / "out3", "-v")
    assert r.returncode == 0, r.stderr
    got = _py_files(tmp_path / "out3")
    assert "build/lib/old.py" in got and "venv/lib/site.py" not in got
    assert f"autograph: skipped {proj / 'venv'}{os.sep} (--exclude)" in r.stderr


def test_convert_check_compares_converted_files_with_their_sources(tmp_path):
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / ".git").mkdir()
    (proj / "src" / "loops.py").write_text(LOOPY)
    assert run("convert", "src", "-o", "converted", cwd=proj).returncode == 0
    hook = ["convert", "--check", "--diff", "--quiet"]  # the autograph-convert-check hook's entry
    # Without a mapping a stale file passes (only re-conversion of the converted file is checked) ...
    (proj / "src" / "loops.py").write_text(LOOPY.replace("total += i", "total += 2 * i"))
    assert run(*hook, "converted/loops.py", cwd=proj).returncode == 0
    # ... with one it fails, naming both files, with the diff.
    (proj / "pyproject.toml").write_text('[tool.autograph]\nconvert-check = {source = "src", output = "converted"}\n')
    (proj / "setup.py").write_text("x = 1\n")  # pre-commit passes every staged Python file
    for named in (["converted/loops.py"], ["src/loops.py"], ["setup.py", "src/loops.py"]):
        r = run(*hook, *named, cwd=proj)
        assert r.returncode == 1, r.stderr
        assert "converted/loops.py:1:1: stale: differs from a fresh conversion of src/loops.py" in r.stderr
        assert "+++ converted/loops.py\t(converted)" in r.stdout and "+        total += 2 * i" in r.stdout
    assert run("convert", "src", "-o", "converted", cwd=proj).returncode == 0
    r = run(*hook, "converted/loops.py", cwd=proj)
    assert (r.returncode, r.stdout) == (0, ""), r.stderr
    # A converted file whose source is gone, and a source never converted.
    (proj / "converted" / "old.py").write_text("x = 1\n")
    (proj / "src" / "new.py").write_text(LOOPY)
    r = run(*hook, "converted/loops.py", cwd=proj)
    assert r.returncode == 1
    assert "converted/old.py:1:1: converted file without a source" in r.stderr
    assert "converted/new.py:1:1: missing: no converted file for src/new.py" in r.stderr
    (proj / "pyproject.toml").write_text('[tool.autograph]\nconvert-check = {source = "src"}\n')
    r = run(*hook, "converted/loops.py", cwd=proj)
    assert r.returncode == 2 and "convert-check" in r.stderr


TRACED = textwrap.dedent('''\
    import autograph_cli.tf as tf


    def g(x):
        raise ValueError("boom")


    @tf.function
    def f(n):
        s = 0
        for i in tf.range(n):
            if i > 1:
                s = g(i)
            else:
                s = i
        return s


    f(tf.constant(5))
    ''')


def _frames(stderr: str) -> list[str]:
    return [l.strip() for l in stderr.splitlines() if l.strip().startswith("File ")]


def test_run_tracebacks_hide_autograph_frames(tmp_path):
    (tmp_path / "prog.py").write_text(TRACED)
    full = run("run", "prog.py", cwd=tmp_path, env={"AUTOGRAPH_TRACEBACK_FILTERING": "0"})
    assert full.returncode == 1
    internal = [f for f in _frames(full.stderr) if "autograph_cli" in f]
    assert len(internal) >= 4, full.stderr  # everything, on request
    r = run("run", "prog.py", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.rstrip().endswith("ValueError: boom")
    frames = _frames(r.stderr)
    # The user's frames as Python shows them (f once, at the line that
    # called g: its helpers for the loop and the if are not frames of their
    # own), each one as in the full traceback.
    prog = tmp_path / "prog.py"
    assert frames == [f'File "{prog}", line 19, in <module>', f'File "{prog}", line 13, in f',
                      f'File "{prog}", line 5, in g'], r.stderr
    assert all(f in _frames(full.stderr) for f in frames), full.stderr

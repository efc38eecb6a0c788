"""Front-door defects a new user hits (issue 13): each test failed before its fix."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from test_cli import AUTOGRAPH, LOOPY, REPO, assert_one_located_line, run


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

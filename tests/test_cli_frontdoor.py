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

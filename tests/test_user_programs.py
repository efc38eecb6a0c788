"""Programs a user writes after reading the guides (the seed documents):
training steps with the tape inside ``tf.function``, dynamic shapes, composite
names and early returns in staged control flow, print/tf.print ordering, Python
side effects under retracing, numpy interop.

Each ``tests/user_programs/NAME.py`` runs in its own interpreter (so seeds,
``run_functions_eagerly`` and trace counters start fresh) and its combined
stdout+stderr (``tf.print`` writes to stderr, as TensorFlow's does) must equal
``NAME.expected``. The expected files were written from the TensorFlow
semantics the seeds describe, numeric values from an independent numpy
computation (see STATUS.md). A program whose first line is ``# XFAIL: reason``
is a known failure, kept so that fixing it is noticed (strict xfail).
"""
from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "user_programs"
PROGRAMS = sorted(p for p in HERE.glob("*.py") if not p.name.startswith("_"))
_RESULTS: dict = {}


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def _run(program: Path, pycache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONHASHSEED="0")
    # Bytecode cached (in a private prefix), also under PYTHONDONTWRITEBYTECODE:
    # without it every program compiles autograph_cli's runtime again (2/3 of its time).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return subprocess.run([sys.executable, program.name], cwd=HERE, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)


@pytest.fixture(scope="session")
def _selected(request) -> list:
    return [item.callspec.params["program"] for item in request.session.items
            if getattr(item, "originalname", None) == "test_user_program" and hasattr(item, "callspec")]


@pytest.fixture(scope="session")
def _pycache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("user_programs_pycache")


def _result(program: Path, selected: list, pycache: Path) -> subprocess.CompletedProcess:
    """The programs are independent interpreters: the first request runs the
    selected ones, one per core at a time, and each test reads its own result."""
    if program not in _RESULTS:
        todo = [p for p in selected if p not in _RESULTS] or [program]
        if len(todo) > 1:  # the first one alone: it writes the bytecode the others read
            _RESULTS[todo[0]] = _run(todo[0], pycache)
            todo = todo[1:]
        with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            _RESULTS.update(zip(todo, pool.map(lambda p: _run(p, pycache), todo)))
    return _RESULTS[program] if program in _RESULTS else _run(program, pycache)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_user_program(program: Path, _selected, _pycache):
    first = program.read_text().splitlines()[0]
    proc = _result(program, _selected, _pycache)
    expected = program.with_suffix(".expected").read_text()
    ok = proc.returncode == 0 and _normalise(proc.stdout) == _normalise(expected)
    if first.startswith("# XFAIL:"):
        if ok:
            pytest.fail(f"{program.name} now passes: remove its XFAIL line")
        pytest.xfail(first[len("# XFAIL:"):].strip())
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert _normalise(proc.stdout) == _normalise(expected)

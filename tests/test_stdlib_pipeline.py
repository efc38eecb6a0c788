"""A real corpus: standard-library modules converted by the pipeline must
pass CPython's own tests exactly as the originals do.

For each module (tests/_stdlib_harness.py MODULES) two subprocesses run its
CPython test module: one with the original module, one with the converted
module served by a meta-path finder and the functional form forced. Every
test (and subtest) that passes on the original must pass converted; the
converted run must really have executed the converted module and the
operators.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from _stdlib_harness import MODULES

HARNESS = Path(__file__).resolve().parent / "_stdlib_harness.py"
TIME_LIMIT = 60  # seconds per subprocess; the slowest module takes ~4 s original


def _start(module, test_module, mode, out):
    env = dict(os.environ)
    env.setdefault("PYTHONHASHSEED", "0")
    return subprocess.Popen(
        [sys.executable, str(HARNESS), module, test_module, "--mode", mode, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=str(HARNESS.parent.parent),
    )


def _finish(proc, out, what):
    try:
        log, _ = proc.communicate(timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"{what}: no result within {TIME_LIMIT} s")
    if proc.returncode != 0 or not out.exists():
        tail = log.decode(errors="replace")[-4000:]
        pytest.fail(f"{what}: harness exited with {proc.returncode}\n{tail}")
    return json.loads(out.read_text())


@pytest.mark.parametrize("module, test_module", MODULES, ids=[m for m, _ in MODULES])
def test_cpython_tests_pass_on_converted_module(module, test_module, tmp_path):
    original_out = tmp_path / "original.json"
    converted_out = tmp_path / "converted.json"
    # Both runs at once: the machine has two cores.
    original_proc = _start(module, test_module, "original", original_out)
    converted_proc = _start(module, test_module, "converted", converted_out)
    original = _finish(original_proc, original_out, f"{module} original")
    converted = _finish(converted_proc, converted_out, f"{module} converted")

    passed = {t for t, o in original["outcomes"].items() if o == "pass"}
    assert len(passed) >= 2, f"{test_module}: too few passing tests to mean anything"
    broken = sorted(
        (t, converted["outcomes"].get(t, "missing"))
        for t in passed
        if converted["outcomes"].get(t) != "pass"
    )
    details = "\n".join(converted["details"].get(t, "")[-1500:] for t, _ in broken[:3])
    assert not broken, f"{len(broken)} of {len(passed)} passing tests differ: {broken[:10]}\n{details}"

    # The converted module was really loaded, has converted functions, and
    # its functional form really ran.
    assert converted["loader_executions"] >= 1
    assert converted["functions_converted"] > 0
    assert any(converted["operators_used"].values()), converted["operators_used"]

"""The ``slow`` marker: long suites are marked here, by file: CPython's own
test suites on converted standard-library modules (minutes of subprocesses),
the pre-commit framework building the hook's virtualenv (pip in a fresh
venv), the JAX random programs (an XLA compilation per program; the numpy
runtime's random programs stay in the bare run). Slow subtests elsewhere are
marked where they are (tests/test_third_party.py's more-itertools).

A bare ``python -m pytest`` (the README's command) leaves them out and says
so; they run when named (``python -m pytest tests/test_stdlib_hook.py``), with
``-m slow``, or with any other ``-m`` (``-m "slow or not slow"`` runs all).
``.ci/run`` runs both halves.
"""
from __future__ import annotations

import os

import pytest

# every op the suite builds is checked against its declared signature, attribute
# kinds included (runtime/opdef.py: STRICT), eagerly too; set before the runtime loads
os.environ.setdefault("AUTOGRAPH_STRICT_OPS", "1")
# and every node the converters build without libcst's validation is validated
# (converters/_nodes.py: STRICT); set before the converters load
os.environ.setdefault("AUTOGRAPH_STRICT_NODES", "1")

SLOW_FILES = {"test_stdlib_pipeline.py", "test_stdlib_hook.py", "test_precommit.py", "test_jax_random_programs.py"}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: minutes-long suites; a bare pytest run skips them (run with -m slow)")
    config._autograph_slow_left_out = 0


def _bare_run(config) -> bool:
    """No test paths and no -m on the command line."""
    if config.option.markexpr:
        return False
    source = getattr(config, "args_source", None)
    if source is not None:
        return source != pytest.Config.ArgsSource.ARGS
    return not config.invocation_params.args  # pragma: no cover - pytest < 7.3


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
    if not _bare_run(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
        config._autograph_slow_left_out = len(slow)


def pytest_terminal_summary(terminalreporter, config):
    n = getattr(config, "_autograph_slow_left_out", 0)
    if n:
        terminalreporter.write_line(f"{n} slow tests left out: python -m pytest -m slow runs them")

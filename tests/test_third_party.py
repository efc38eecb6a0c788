"""Third-party test suites under the import hook.

Pure-Python packages' own test suites run through ``autograph run --convert
PKG -m pytest ...`` (the package and its tests converted on import) in both
modes: the fast path (no trace: the user's own statements run) and the
functional form forced (``operators.force_functional(True)`` from a pytest
plugin: what runs whenever that code is called under a trace). Either mode
may fail no test beyond the ones a plain run fails (a plain run is made
only to compare, when a hooked run fails something).

The packages are vendored as their PyPI sdists (MIT or BSD licensed; the
sdists carry their licences) under tests/data/third_party, so that this
tier needs no network: more-itertools, toolz, six, inflection, boltons
(whose suite reads frames: a sentinel factory records its caller's module,
tracebacks utilities count frames, deprecation warnings use stacklevel),
and pluggy and iniconfig (pytest itself then runs on their converted copies).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data" / "third_party"

# sdist -> (modules to convert, pytest arguments[, the sdist's directory of
# the package, put first on the path])
SUITES = {
    "more_itertools-11.2.1": (["more_itertools", "tests"], ["tests"]),
    "toolz-1.2.0": (["toolz", "tlz"], ["toolz/tests"]),
    "six-1.17.0": (["six", "test_six"], ["test_six.py"]),
    "inflection-0.5.1": (["inflection", "test_inflection"], ["test_inflection.py"]),
    "boltons-26.2.0": (["boltons", "tests"], ["tests"]),
    # pytest's own plugin manager and ini parser: pytest runs on the
    # converted copies (imported after the hook is installed)
    "pluggy-1.7.0": (["pluggy"], ["testing", "--ignore=testing/benchmark.py"], "src"),
    "iniconfig-2.3.1": (["iniconfig"], ["testing"], "src"),
}

# Tests allowed to fail beyond the plain run's: {(suite, mode): test ids}.
# Before 3.11 a trimmed traceback cannot be re-raised as it is (see
# operators.trim_traceback), and six checks traceback entries one by one.
KNOWN = {("six-1.17.0", "forced"): {"test_six.py::test_reraise"}} if sys.version_info < (3, 11) else {}

# A pytest plugin: forces the functional form when asked to, and reports
# which modules were converted and how many functional forms ran.
PLUGIN = """\
import os
import sys

from autograph_cli import operators

if os.environ.get("AUTOGRAPH_TIER_FORCE") == "1":
    operators.force_functional(True)


def pytest_terminal_summary(terminalreporter):
    from autograph_cli.operators import _calls

    converted = sorted(n for n, m in list(sys.modules.items())
                       if type(getattr(m, "__dict__", None)) is dict and "ag__" in m.__dict__)
    terminalreporter.write_line("autograph-tier: converted=" + ",".join(converted))
    terminalreporter.write_line(f"autograph-tier: functional-code={len(_calls._machinery)}")
"""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("third_party")
    (root / "plugins").mkdir()
    (root / "plugins" / "autograph_tier.py").write_text(PLUGIN)
    return root


def _unpack(root: Path, name: str) -> Path:
    target = root / name
    if not target.exists():
        with tarfile.open(DATA / f"{name}.tar.gz") as tar:
            members = [m for m in tar.getmembers() if m.isfile() or m.isdir()]
            if sys.version_info >= (3, 12):
                tar.extractall(root, members=members, filter="data")
            else:
                tar.extractall(root, members=members)
    return target


def _pytest(cwd: Path, plugins: Path, args: list, convert: list | None, forced: bool, src: str | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "AUTOGRAPH_", "COV_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join([*([str(cwd / src)] if src else []), str(plugins),
                                         *filter(None, [os.environ.get("PYTHONPATH")])])
    env["PYTHONHASHSEED"] = "0"
    env["AUTOGRAPH_TIER_FORCE"] = "1" if forced else "0"
    pytest_args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE", "-p", "autograph_tier"]
    if convert is None:
        cmd = [sys.executable, *pytest_args, *args]
    else:
        cmd = [sys.executable, "-m", "autograph_cli", "run"]
        for name in convert:
            cmd += ["--convert", name]
        # (--assert=plain: pytest's assertion rewriting would import the
        # test modules itself, unconverted)
        cmd += [*pytest_args, "--assert=plain", *args]
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    return r


def _outcome(r):
    """(passed, the ids of failed and erroring tests)."""
    out = r.stdout
    failed = set(re.findall(r"^(?:FAILED|ERROR) (\S+)", out, re.M))
    summary = [line for line in out.splitlines() if re.search(r"\d+ passed.* in [\d.]+s", line)]
    m = re.search(r"(\d+) passed", summary[-1]) if summary else None
    passed = int(m.group(1)) if m else 0
    return passed, failed


# more-itertools (21,000 subtests: ~25 s fast, ~50 s forced) is a slow suite
# (tests/conftest.py: a bare pytest run leaves it out; .ci/run runs it).
SLOW = {"more_itertools-11.2.1"}


@pytest.mark.parametrize("mode", ["fast", "forced"])
@pytest.mark.parametrize("suite", [pytest.param(s, marks=[pytest.mark.slow] if s in SLOW else []) for s in sorted(SUITES)])
def test_suite_under_the_hook(workdir, suite, mode):
    convert, args, *src = SUITES[suite]
    cwd = _unpack(workdir, suite)
    r = _pytest(cwd, workdir / "plugins", args, convert, forced=mode == "forced", src=src[0] if src else None)
    passed, failed = _outcome(r)
    tail = (r.stdout[-4000:] + r.stderr[-2000:])
    assert passed > 0, tail
    # The package and its tests were converted; forced, functional forms ran.
    converted = re.search(r"^autograph-tier: converted=(.*)$", r.stdout, re.M).group(1).split(",")
    assert all(any(m == name or m.startswith(name + ".") for m in converted) for name in convert), converted
    compiled = int(re.search(r"^autograph-tier: functional-code=(\d+)$", r.stdout, re.M).group(1))
    assert (compiled > 0) == (mode == "forced"), compiled
    if r.returncode != 0 or failed:
        plain = _pytest(cwd, workdir / "plugins", args, None, forced=False, src=src[0] if src else None)
        plain_passed, plain_failed = _outcome(plain)
        assert failed - KNOWN.get((suite, mode), set()) <= plain_failed and plain_passed > 0, tail

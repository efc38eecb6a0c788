"""Import cost of converted modules, through the real import hook.

For each module (copies of standard-library modules, under new names, in a
temporary directory) every measurement runs in fresh interpreters and times
``import`` with ``time.perf_counter`` (the interpreter start-up is not timed):

- cached: plain cached import (normal .pyc) vs cached import of the converted
  module (the hook installed before the timer starts, the cache warm); each
  interpreter imports the plain and the converted copy alternately
  ``--repeat`` times (removing them from ``sys.modules`` in between: the
  whole import path, from the finder to the module's execution, runs every
  time; alternating keeps both under the same machine load) and reports the
  medians; the figure is the median over ``--runs`` interpreters.
  Target: converted/plain <= 1.2. The copies keep the originals' file times
  (as an install or a checkout has them), so the cache's stat shortcut
  applies; the same figure with the source hashed on every import
  (``--check-hash-based-pycs always``) is printed too. The operators' own
  import, paid once per process, is printed apart;
- first import: the hook converts, compiles and caches the module (libcst
  already imported, then also counting libcst's own import), as lines/second,
  next to the transpiler alone converting the same module in the same
  conditions (a fresh interpreter, the converter imported).

Medians over repeated runs; prints ratios.

    python benchmarks/bench_import.py [--runs N] [--repeat K]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MODULES = ["textwrap", "difflib", "calendar", "fractions", "shlex", "heapq", "ipaddress", "configparser"]

TIMED = """
import sys, time, statistics
{setup}
times = []
for i in range({repeat}):
    sys.modules.pop("{name}", None)
    t0 = time.perf_counter()
    import {name}
    times.append(time.perf_counter() - t0)
ok = "ag__" in vars(sys.modules["{name}"])
print(statistics.median(times), ok)
"""

# Plain and converted copies imported alternately in one interpreter, so that
# both see the same machine load; prints the medians of both.
PAIRED = """
import sys, time, statistics
{setup}
plain, conv = [], []
for i in range({repeat}):
    for name, out in (("{plain}", plain), ("{conv}", conv)):
        sys.modules.pop(name, None)
        t0 = time.perf_counter()
        __import__(name)
        out.append(time.perf_counter() - t0)
ok = "ag__" in vars(sys.modules["{conv}"]) and "ag__" not in vars(sys.modules["{plain}"])
print(statistics.median(plain), statistics.median(conv), ok)
"""


def _paired(workdir: Path, plain: str, conv: str, setup: str, repeat: int, *options: str) -> tuple[float, float, bool]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(workdir)
    code = PAIRED.format(setup=setup, plain=plain, conv=conv, repeat=repeat)
    out = subprocess.run([sys.executable, *options, "-c", code], cwd=workdir, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[0]), float(out[1]), out[2] == "True"


def _time(workdir: Path, name: str, setup: str, *, cache_dir: Path | None = None, repeat: int = 1) -> tuple[float, bool]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache_dir is not None:  # an empty cache: the import converts
        shutil.rmtree(cache_dir, ignore_errors=True)
        env["PYTHONPYCACHEPREFIX"] = str(cache_dir)
    env["PYTHONPATH"] = str(workdir)
    out = subprocess.run([sys.executable, "-c", TIMED.format(setup=setup, name=name, repeat=repeat)], cwd=workdir, env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), out[1] == "True"


HOOK = "import autograph_cli; autograph_cli.install_import_hook(['{name}'])"
# The operators are imported once per process, by the first converted module.
WITH_OPERATORS = "; import autograph_cli.operators"


# The transpiler alone under the first import's conditions: a fresh
# interpreter with the converter imported, one module converted once (the
# form the hook makes).
PIPELINE = """
import sys, time
import converters, autograph_cli.api, autograph_cli.operators
text = open(sys.argv[1]).read()
t0 = time.perf_counter()
converters.convert(text, filename=sys.argv[1], fast_path=True, lazy=True)
print(time.perf_counter() - t0)
"""


def _pipeline_seconds(work: Path, file: str) -> float:
    out = subprocess.run([sys.executable, "-c", PIPELINE, file], cwd=work, capture_output=True, text=True, check=True)
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="interpreters per measurement")
    parser.add_argument("--repeat", type=int, default=30, help="cached imports timed per interpreter")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_import_"))
    try:
        rows = []
        for mod in MODULES:
            # Two copies: one imported plainly, one through the hook, so the
            # two caches never meet. Copied as an install or a checkout
            # would, with the file's times: not a file edited a moment ago.
            origin = importlib.util.find_spec(mod).origin
            shutil.copy2(origin, work / f"bench_{mod}.py")
            shutil.copy2(origin, work / f"bench_{mod}_c.py")
        # A copy is a change too (its ctime is now): wait out the cache's racy
        # window (2 s), as for any file not changed a moment ago.
        time.sleep(2.5)
        for mod in MODULES:
            origin = importlib.util.find_spec(mod).origin
            name = f"bench_{mod}"
            lines = Path(origin).read_text().count("\n")
            plain_setup, hook_setup = "", HOOK.format(name=f"{name}_c")

            # warm both caches
            _time(work, name, plain_setup)
            _, converted = _time(work, f"{name}_c", hook_setup)
            plain, hooked, hashed = [], [], []
            for _ in range(args.runs):
                p, h, ok = _paired(work, name, f"{name}_c", hook_setup + WITH_OPERATORS, args.repeat)
                converted = converted and ok
                plain.append(p)
                hooked.append(h)
                # The same with the source read and hashed on every import.
                p, h, _ = _paired(work, name, f"{name}_c", hook_setup + WITH_OPERATORS, args.repeat,
                                  "--check-hash-based-pycs", "always")
                hashed.append(h / p)

            first, first_cold, alone = [], [], []
            warm_libcst = hook_setup + "; import converters, autograph_cli.api" + WITH_OPERATORS
            empty = work / "empty_cache"
            for _ in range(max(3, args.runs // 3)):
                first.append(_time(work, f"{name}_c", warm_libcst, cache_dir=empty)[0])
                first_cold.append(_time(work, f"{name}_c", hook_setup, cache_dir=empty)[0])
                alone.append(_pipeline_seconds(work, f"{name}_c.py"))
            rows.append((mod, lines, converted, statistics.median(plain), statistics.median(hooked),
                         statistics.median(first), statistics.median(first_cold), statistics.median(alone),
                         statistics.median(hashed)))

        print(f"{'module':<13}{'lines':>6}  {'conv':>4}  {'plain ms':>8}  {'cached ms':>9}  {'ratio':>6}"
              f"  {'first ms':>8}  {'lines/s':>8}  {'+libcst import':>14}")
        ratios, total_lines, total_first, total_cold, total_alone = [], 0, 0.0, 0.0, 0.0
        for mod, lines, converted, p, h, f, fc, a, _ in rows:
            total_alone += a
            ratio = h / p
            ratios.append(ratio)
            total_lines += lines
            total_first += f
            total_cold += fc
            print(f"{mod:<13}{lines:>6}  {'yes' if converted else 'NO':>4}  {p * 1e3:>8.2f}  {h * 1e3:>9.2f}  {ratio:>6.2f}"
                  f"  {f * 1e3:>8.1f}  {lines / f:>8.0f}  {lines / fc:>10.0f} l/s")
        geo = statistics.geometric_mean(ratios)
        print()
        print(f"cached import, converted / plain: geometric mean {geo:.2f}x, max {max(ratios):.2f}x (target <= 1.2x)")
        hashed = [r[-1] for r in rows]
        print(f"  with the source read and hashed on every import (--check-hash-based-pycs always): "
              f"geometric mean {statistics.geometric_mean(hashed):.2f}x, max {max(hashed):.2f}x")
        ops = statistics.median(_time(work, "autograph_cli.operators", "import autograph_cli")[0] for _ in range(args.runs))
        print(f"  once per process, the first converted module also imports the operators: {ops * 1e3:.2f} ms")
        print(f"first import (convert + compile + cache): {total_lines / total_first:.0f} lines/s "
              f"({total_lines / total_cold:.0f} lines/s counting libcst's import)")
        print(f"  the transpiler alone (converters.convert, same conditions: one module in a fresh interpreter): "
              f"{total_lines / total_alone:.0f} lines/s; first import / transpiler throughput: "
              f"{total_alone / total_first:.2f} (the rest: compiling, reading, writing the cache)")
        not_converted = [r[0] for r in rows if not r[2]]
        if not_converted:
            print(f"NOTE: imported as written (conversion failed): {', '.join(not_converted)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

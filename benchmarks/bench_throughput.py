"""Conversion throughput over a standard-library corpus, on one core.

Converts 40 pure-Python modules of the running interpreter's standard library
(about 43,000 lines) with ``converters.convert`` and, as the baseline, parses
and re-prints the same files with libcst alone (``parse_module(src).code``).
Each measurement is the whole corpus, sequentially in this one
single-threaded process (one core); the median of --runs runs is reported,
the three measurements interleaved run by run.

Prints lines/s for both conversion modes (``fast_path=True``, the dual form
the import hook and ``to_graph`` execute; ``fast_path=False``, the functional
form ``autograph to-code`` prints) and their ratio to libcst parse+print.
Targets: >= 4000 lines/s and <= 3x libcst parse+print.

    python benchmarks/bench_throughput.py [--runs 3] [--json]
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import sysconfig
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import libcst  # noqa: E402

from converters import convert  # noqa: E402

#: Pure-Python stdlib modules, relative to the stdlib directory, without ".py".
CORPUS = """
    argparse textwrap difflib fractions statistics shlex configparser csv heapq
    bisect calendar string tokenize ast dataclasses enum functools pprint locale
    gettext ipaddress json/decoder json/encoder pathlib email/_header_value_parser
    html/parser urllib/parse collections/__init__ random contextlib copy glob
    fnmatch shutil subprocess logging/__init__ optparse queue numbers sched
""".split()


def load_corpus():
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = []
    for name in CORPUS:
        path = stdlib / f"{name}.py"
        files.append((str(path), path.read_text(encoding="utf-8")))
    return files


def time_pass(files, fn) -> float:
    gc.collect()
    start = time.perf_counter()
    for path, src in files:
        fn(path, src)
    return time.perf_counter() - start


def libcst_roundtrip(path, src):
    code = libcst.parse_module(src).code
    assert code == src


def converter(fast_path):
    def run(path, src):
        convert(src, filename=path, fast_path=fast_path)

    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    files = load_corpus()

    # One untimed pass each: imports, caches, and the per-function report.
    # A file the converter fails on is reported and left out of every timing.
    time_pass(files, libcst_roundtrip)
    converted = total = 0
    failed = []
    for path, src in files:
        try:
            result = convert(src, filename=path, fast_path=True)
            convert(src, filename=path, fast_path=False)
        except Exception as e:  # reported below, not hidden
            failed.append((path, f"{type(e).__name__}: {e}"))
            continue
        total += len(result.report)
        converted += sum(1 for r in result.report if r.converted)
    bad = {p for p, _ in failed}
    files = [(p, s) for p, s in files if p not in bad]
    lines = sum(src.count("\n") for _, src in files)

    measures = {
        "libcst parse+print": lambda: time_pass(files, libcst_roundtrip),
        "convert fast_path=True": lambda: time_pass(files, converter(True)),
        "convert fast_path=False": lambda: time_pass(files, converter(False)),
    }
    times = {k: [] for k in measures}
    for _ in range(args.runs):
        for k, measure in measures.items():
            times[k].append(measure())
    med = {k: statistics.median(v) for k, v in times.items()}
    # The ratio to libcst is paired: each round's time over libcst's time in
    # the same round, then the median (cancels drift in a shared machine's load).
    base_times = times["libcst parse+print"]
    rows = [
        {
            "what": k,
            "seconds": t,
            "lines_per_s": lines / t,
            "vs_libcst": statistics.median(a / b for a, b in zip(times[k], base_times)),
        }
        for k, t in med.items()
    ]
    summary = {
        "failed": failed,
        "files": len(files),
        "lines": lines,
        "runs": args.runs,
        "functions_reported": total,
        "functions_converted": converted,
    }
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=2))
        return

    for path, error in failed:
        print(f"CONVERSION FAILED (left out of the timings): {path}: {error}")
    print(f"corpus: {len(files)} stdlib modules, {lines} lines; median of {args.runs} runs, one core")
    print(f"{'':<26}{'seconds':>9}{'lines/s':>10}{'vs libcst':>11}")
    for r in rows:
        print(f"{r['what']:<26}{r['seconds']:>9.2f}{r['lines_per_s']:>10.0f}{r['vs_libcst']:>10.2f}x")
    print(f"functions in the report: {total}, converted: {converted}")
    print("targets: >= 4000 lines/s, <= 3x libcst parse+print")


if __name__ == "__main__":
    main()

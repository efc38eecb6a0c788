"""How many standard-library functions with control flow the pipeline converts.

Over the modules whose CPython tests tests/test_stdlib_pipeline.py runs,
every def (function, method, nested function) whose own body has control
flow (if/while/for, ternary, and/or/not, assert; comprehensions and nested
scopes not counted) is looked up in the conversion report, and its
functional form (fast_path=False) is checked for calls of the control-flow
operators: a function counts as converted only if its control flow really
became operator calls. Prints a table, the reasons functions were not
converted, and the overall figure (goal: >= 95%).

    python benchmarks/stdlib_coverage.py [-v]
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _stdlib_harness import MODULES, census  # noqa: E402

GOAL = 0.95


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list every function left")
    args = parser.parse_args(argv)

    import converters

    converters.convert("def warm_up(x):\n    return x if x else -x\n")  # imports, caches
    rows = [census(name) for name, _ in MODULES]
    reasons = collections.Counter()
    header = f"{'module':<12} {'lines':>6} {'with cf':>8} {'converted':>10} {'untouched':>10} "
    print(header + f"{'left':>5} {'missing':>8} {'share':>7} {'expr only':>10}")
    for row in rows:
        n = row["functions"]
        share = len(row["converted"]) / n if n else 1.0
        print(
            f"{row['module']:<12} {row['lines']:>6} {n:>8} {len(row['converted']):>10} "
            f"{len(row['untouched']):>10} {len(row['left']):>5} {len(row['missing']):>8} "
            f"{share:>7.1%} {len(row['expressions_only']):>10}"
        )
        for qual, line, reason in row["left"]:
            reasons[reason] += 1
            if args.verbose:
                print(f"    left      {row['module']}:{line} {qual}: {reason}")
        for qual, line, reason in row["untouched"]:
            reasons[f"reported converted, no operator in its functional form ({reason})"] += 1
            if args.verbose:
                print(f"    untouched {row['module']}:{line} {qual}")
        for qual, line in row["missing"]:
            reasons["(not in the report)"] += 1
            if args.verbose:
                print(f"    absent    {row['module']}:{line} {qual}")
        if args.verbose:
            for qual, line in row["expressions_only"]:
                print(f"    expr only {row['module']}:{line} {qual}")
    total = sum(r["functions"] for r in rows)
    done = sum(len(r["converted"]) for r in rows)
    expr_only = sum(len(r["expressions_only"]) for r in rows)
    lines = sum(r["lines"] for r in rows)
    seconds = sum(r["seconds"] for r in rows)
    print()
    print("not converted, by reason:")
    for reason, count in reasons.most_common():
        print(f"  {count:>4}  {reason}")
    share = done / total if total else 1.0
    print()
    print(
        f"converted {done} of {total} functions with control flow: {share:.1%} "
        f"(goal {GOAL:.0%}: {'met' if share >= GOAL else 'NOT met'})"
    )
    print(
        f"  of which {expr_only} only had and/or/not/ternaries rewritten, their "
        f"if/while/for left as Python statements (generators)"
    )
    print(f"conversion: {lines} lines in {seconds:.2f} s = {lines / seconds:.0f} lines/s (one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

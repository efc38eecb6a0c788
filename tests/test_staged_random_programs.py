"""Random programs, four ways: plain Python, converted (functional form forced)
on Python values, traced by tf.function on Python values, and staged by
tf.function on int32 tensors. All four must agree.

A seeded generator (deterministic: AG_RANDOM_SEED, default 0; AG_RANDOM_PROGRAMS
programs, default 1200) writes functions `prog_N(a, b)` over int variables with
nested if/elif/else, `for` over `range(k)` (a Python loop) and over
`range(<tensor expr>)` (a staged loop when the values are tensors), `while`
loops with a tensor or a Python test, break/continue/return at any depth
(several jumps per loop), and/or/not, ternaries, and variables first bound
inside a block and read after it. Arithmetic is kept bounded with `% p` for
small primes. Programs are written to real modules (AutoGraph converts from
source), 100 per module, converted once per module.

Outcomes of the staged run against plain Python:
- ok: equal values, or the same exception type (Python's exception raised when
  the graph runs or while tracing);
- documented: Python returns a value but the staged run raises one of the
  errors TensorFlow documents for the construct (a variable defined in one
  branch only / before a staged loop, a break/return depending on a tensor in
  a Python loop) -- TensorFlow rejects these programs too;
- wrong: a different value, or a value where Python raises (silent) -- must be 0;
- raise: any other exception where Python returns -- budgeted (RAISE_BUDGET).
The converted and the traced-on-Python-values runs must equal plain Python
exactly (no budget). tests/conformance/FAILURES.md has minimized repros.
"""
from __future__ import annotations

import importlib.util
import os
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest

from _differential import exec_converted, forced_functional, time_limit

SEED = int(os.environ.get("AG_RANDOM_SEED", "0"))
N_PROGRAMS = int(os.environ.get("AG_RANDOM_PROGRAMS", "1200"))
PER_MODULE = 100
INPUTS = [(3, 5), (-4, 11), (0, 0), (17, -2)]  # staged: one trace, every input
PY_TRACED_INPUT = (3, 5)  # traced on Python values: baked into the trace, one input
# "raise" outcomes (not documented, Python returns a value) allowed: none (it was 54 before the
# staged-semantics fixes of issue 8; an environment variable lets a bisection raise it)
RAISE_BUDGET = int(os.environ.get("AG_RANDOM_RAISE_BUDGET", "0"))

# errors TensorFlow documents for constructs a graph cannot express
DOCUMENTED = [
    (ValueError, r"must also be initialized in the (main|else) branch"),
    # tracing explores paths Python did not take: reading a variable never bound on such a path is
    # TensorFlow's UnboundLocalError ("'t' is used before assignment") at trace time
    (UnboundLocalError, r""),
    # a break/return depending on a tensor inside a loop that runs in Python (seed 000's
    # buggy_py_for_tf_break): TensorFlow's NotImplementedError, raised while tracing
    (NotImplementedError, r"not supported in Python for loops|condition of while loop started as non-Tensor"),
]

# undocumented errors where Python returns a value, by failure class (see FAILURES.md)
RAISE_CLASSES = [
    ("unbound-nameerror", NameError, r"cannot access free variable"),
    ("tensor-out-of-block", TypeError, r"cannot be accessed here"),
    ("return-in-one-branch", ValueError, r"'retval_' is None in the"),
]


def raise_class(exc):
    for name, t, rx in RAISE_CLASSES:
        if isinstance(exc, t) and re.search(rx, str(exc)):
            return name
    return f"{type(exc).__name__}: {str(exc)[:60]}"


# ---------------------------------------------------------------- generator
class Gen:
    """Writes one program with a seeded random.Random."""

    PRIMES = (97, 89, 13, 7, 5)
    RETURN = "x, y, z"  # what every `return` returns (a subclass carrying more state returns it too)

    def __init__(self, rng: random.Random):
        self.r = rng
        self.loops = 0
        self.temps = 0

    def chance(self, p):
        return self.r.random() < p

    # expressions over int vars; `py` names are Python ints even when staged
    def atom(self, names):
        if self.chance(0.25):
            return str(self.r.randint(-3, 9))
        return self.r.choice(names)

    def expr(self, names, depth=2):
        if depth <= 0 or self.chance(0.4):
            return self.atom(names)
        k = self.r.random()
        sub = depth - 1
        if k < 0.6:
            op = self.r.choice(["+", "-", "*", "+", "-"])
            return f"({self.expr(names, sub)} {op} {self.expr(names, sub)})"
        if k < 0.75:
            return f"({self.expr(names, sub)} % {self.r.choice(self.PRIMES)})"
        if k < 0.85:
            return f"({self.expr(names, sub)} // {self.r.choice((2, 3, 5))})"
        return f"({self.expr(names, sub)} if {self.cond(names, sub)} else {self.expr(names, sub)})"

    def cond(self, names, depth=1):
        k = self.r.random()
        op = self.r.choice(["<", "<=", "==", "!=", ">", ">="])
        base = f"{self.expr(names, depth)} {op} {self.expr(names, depth)}"
        if depth <= 0 or k < 0.6:
            return base
        if k < 0.8:
            return f"({base}) {self.r.choice(['and', 'or'])} ({self.cond(names, depth - 1)})"
        return f"not ({base})"

    def py_cond(self, pynames):
        """A condition on Python values only (loop indices of Python loops, literals)."""
        if not pynames:
            return self.r.choice(["True", "False"])
        v = self.r.choice(pynames)
        return f"{v} {self.r.choice(['<', '==', '>', '!='])} {self.r.randint(0, 3)}"

    # statements
    def block(self, ctx, depth, indent):
        lines = []
        for _ in range(self.r.randint(1, 3 if depth < 2 else 2)):
            lines += self.stmt(ctx, depth, indent)
        return lines

    def stmt(self, ctx, depth, indent):
        pad = "    " * indent
        names = ctx["names"]
        kinds = ["assign", "assign", "assign"]
        if depth < 2:
            kinds += ["if", "if", "for_py", "for_staged", "while"]
        elif depth < 3:
            kinds += ["if"]
        loop = ctx["loop"]
        if loop:
            kinds += ["break", "continue"]
        kinds += ["return"] if self.chance(0.5) else []
        kinds += ["temp"] if self.chance(0.3) else []
        kind = self.r.choice(kinds)
        if kind == "assign":
            tgt = self.r.choice(["x", "y", "x", "y", "z"])
            return [f"{pad}{tgt} = {self.expr(names)} % {self.r.choice(self.PRIMES)}"]
        if kind == "temp":
            # first bound inside a block, read after it (may be unbound: Python raises)
            self.temps += 1
            t = f"t{self.temps}"
            ctx["pending"].append(t)
            return [f"{pad}{t} = {self.expr(names)} % 13"]
        if kind == "if":
            staged = not self.chance(0.25)
            c = self.cond(names) if staged else self.py_cond(ctx["py"])
            out = [f"{pad}if {c}:"] + self.block(ctx, depth + 1, indent + 1)
            r = self.r.random()
            if r < 0.3:
                out += [f"{pad}elif {self.cond(names)}:"] + self.block(ctx, depth + 1, indent + 1)
            if r < 0.7:
                out += [f"{pad}else:"] + self.block(ctx, depth + 1, indent + 1)
            return out + self.flush(ctx, pad)
        if kind in ("for_py", "for_staged", "while"):
            self.loops += 1
            n = self.loops
            inner = dict(ctx, loop=kind, py=list(ctx["py"]), py_loop=False)
            if kind == "for_py":
                i = f"i{n}"
                inner["py"].append(i)
                inner["py_loop"] = True
                inner["names"] = names + [i]
                head = [f"{pad}for {i} in range({self.r.randint(0, 4)}):"]
                first = []
            elif kind == "for_staged":
                i = f"i{n}"
                inner["names"] = names + [i]
                head = [f"{pad}for {i} in range({self.r.choice(['a', 'b', 'x', 'y'])} % {self.r.randint(2, 5)}):"]
                first = []
            else:
                w = f"w{n}"
                if self.chance(0.5):  # tensor test
                    head = [f"{pad}{w} = a * 0", f"{pad}while {w} < {self.r.choice(['a', 'b', 'x'])} % 4:"]
                else:  # Python test
                    head = [f"{pad}{w} = 0", f"{pad}while {w} < {self.r.randint(0, 3)}:"]
                    inner["py"].append(w)
                    inner["py_loop"] = True
                inner["names"] = names + [w]
                first = [f"{pad}    {w} = {w} + 1"]
            body = first + self.block(inner, depth + 1, indent + 1)
            out = head + body
            if self.chance(0.15):
                out += [f"{pad}else:", f"{pad}    z = (z + 1) % 7"]
            return out + self.flush(ctx, pad)
        # a jump on a tensor inside a loop that runs in Python: TensorFlow rejects it (documented); mostly avoided
        if kind in ("break", "continue"):
            c = self.py_cond(ctx["py"]) if (ctx.get("py_loop") and self.chance(0.85)) else self.cond(names)
            return [f"{pad}if {c}:", f"{pad}    {kind}"]
        # return
        c = self.py_cond(ctx["py"]) if (ctx["py"] and self.chance(0.85)) else self.cond(names)
        return [f"{pad}if {c}:", f"{pad}    return {self.RETURN}"]

    def flush(self, ctx, pad):
        """Read the temps bound inside the block just closed."""
        out = []
        while ctx["pending"]:
            t = ctx["pending"].pop()
            if self.chance(0.6):
                out.append(f"{pad}x = (x + {t}) % 97")
        return out

    NAMES = ["a", "b", "x", "y", "z"]
    PROLOGUE = ["x = a % 11", "y = b % 7", "z = 1"]

    def program(self, name):
        ctx = {"names": list(self.NAMES), "loop": None, "py": [], "pending": []}
        lines = [f"def {name}(a, b):"] + [f"    {line}" for line in self.PROLOGUE]
        body = []
        for _ in range(self.r.randint(2, 3)):
            body += self.stmt(ctx, 0, 1)
        body += self.flush(ctx, "    ")
        return "\n".join(lines + body + [f"    return {self.RETURN}", ""])


# ---------------------------------------------------------------- running
@dataclass
class Stats:
    outcomes: Counter = field(default_factory=Counter)  # kind -> count (per program: its worst input)
    raises: Counter = field(default_factory=Counter)  # raise class -> count of programs
    clean: Counter = field(default_factory=Counter)  # outcomes of programs without block-bound temps
    examples: dict = field(default_factory=dict)  # kind -> list of (source, input, python, staged)
    seconds: float = 0.0
    programs: int = 0

    def add(self, kind, example):
        self.outcomes[kind] += 1
        lst = self.examples.setdefault(kind, [])
        if len(lst) < 40:
            lst.append(example)


def _plain(v):
    import autograph_cli.tf as tf

    if isinstance(v, tf.Tensor):
        return v.numpy().item()
    if isinstance(v, (tuple, list)):
        return tuple(_plain(x) for x in v)
    return v


def _call(fn, *args):
    try:
        with time_limit(10):
            return ("value", _plain(fn(*args)))
    except Exception as e:  # noqa: BLE001 - an observation
        return ("raise", e)


def _documented(exc, documented=None):
    return any(isinstance(exc, t) and re.search(rx, str(exc)) for t, rx in (documented or DOCUMENTED))


def _describe(o):
    return o[1] if o[0] == "value" else f"{type(o[1]).__name__}: {str(o[1])[:300]}"


def _classify(py, st, documented=None):
    if py[0] == "value":
        if st[0] == "value":
            return "ok" if st[1] == py[1] else "wrong"
        return "documented" if _documented(st[1], documented) else "raise"
    if st[0] == "value":
        return "wrong"  # Python raises, the graph silently returns
    return "ok" if isinstance(st[1], type(py[1])) or _documented(st[1], documented) else "raise-other-type"


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


SEVERITY = ["ok", "documented", "raise-other-type", "raise", "wrong"]


def run_all(tmp_dir, n_programs=N_PROGRAMS, seed=SEED, gen=Gen, prelude="", tag="staged", traced_ok=("ok",),
            documented=None):
    """``gen``: the generator class; ``prelude``: module text before the
    programs (imports, helper classes); ``tag`` names the modules;
    ``traced_ok``: the outcomes allowed for the run traced on Python values
    (programs that make tensors of their own stage conditionals there too);
    ``documented``: the (type, message pattern) errors TensorFlow documents
    (default: DOCUMENTED)."""
    import autograph_cli.tf as tf
    import converters

    stats = Stats()
    rng = random.Random(seed)
    start = time.perf_counter()
    for m in range(0, n_programs, PER_MODULE):
        count = min(PER_MODULE, n_programs - m)
        sources = [gen(rng).program(f"prog_{m + k}") for k in range(count)]
        text = prelude + "\n\n".join(sources)
        path = tmp_dir / f"_random_{tag}_{seed}_{m}.py"
        path.write_text(text)
        orig = _load(path, f"_random_{tag}_orig_{seed}_{m}")
        result = converters.convert(text, filename=str(path), fast_path=True)
        conv = exec_converted(result, f"_random_{tag}_conv_{seed}_{m}", str(path))
        for k, src in enumerate(sources):
            name = f"prog_{m + k}"
            stats.programs += 1
            fo, fc = getattr(orig, name), getattr(conv, name)
            staged = tf.function(fc)
            worst = "ok"
            example = None
            for a, b in INPUTS:
                py = _call(fo, a, b)
                with forced_functional():
                    cv = _call(fc, a, b)
                if (cv[0], cv[1] if cv[0] == "value" else type(cv[1])) != (
                        py[0], py[1] if py[0] == "value" else type(py[1])):
                    kind, got = "converted-differs", cv
                else:
                    kind, got = None, None
                if kind is None and (a, b) == PY_TRACED_INPUT:
                    tp = _call(tf.function(fc), a, b)
                    if _classify(py, tp, documented) not in traced_ok:
                        kind, got = "traced-python-differs", tp
                if kind is None:
                    st = _call(staged, tf.constant(a), tf.constant(b))
                    kind, got = _classify(py, st, documented), st
                if kind in ("converted-differs", "traced-python-differs"):
                    kind_rank = "wrong"
                else:
                    kind_rank = kind
                if SEVERITY.index(kind_rank) > SEVERITY.index(worst if worst in SEVERITY else "wrong"):
                    worst = kind_rank
                    example = (src, (a, b), _describe(py), _describe(got), kind, got[1])
            stats.add(worst, example)
            if not re.search(r"\bt\d+ =", src):
                stats.clean[worst] += 1
            if worst in ("raise", "raise-other-type"):
                stats.raises[raise_class(example[5])] += 1
    stats.seconds = time.perf_counter() - start
    return stats


_STATS = {}


@pytest.fixture(scope="module")
def stats(tmp_path_factory):
    if "s" not in _STATS:
        _STATS["s"] = run_all(tmp_path_factory.mktemp("random_staged"))
    return _STATS["s"]


def _show(stats, kind, n=3):
    out = []
    for src, inp, py, got, sub, _ in stats.examples.get(kind, [])[:n]:
        out.append(f"--- {sub} on {inp}: Python {py!r}, staged {got!r}\n{src}")
    return "\n".join(out)


def test_random_programs_run(stats):
    assert stats.programs >= 1000 or N_PROGRAMS < 1000
    print(f"\n{stats.programs} programs in {stats.seconds:.1f} s: {dict(stats.outcomes)}; raises: {dict(stats.raises)}")


def test_no_wrong_answers(stats):
    """Strict: no silent mismatches (a wrong value, a value where Python raises),
    and the converted / traced-on-Python-values runs equal plain Python."""
    assert stats.outcomes["wrong"] == 0, _show(stats, "wrong")


def test_clean_programs_never_raise(stats):
    """Strict, for the subset of programs without variables first bound inside a
    block (no path-dependent unbound reads): every staged run equals Python or
    raises TensorFlow's documented error."""
    bad = {k: v for k, v in stats.clean.items() if k not in ("ok", "documented")}
    assert not bad, dict(stats.clean)


def test_raises_within_budget(stats):
    """Staged runs that raise (an undocumented error) where Python returns a
    value: at most RAISE_BUDGET (lower the budget as fixes land)."""
    n = stats.outcomes["raise"] + stats.outcomes["raise-other-type"]
    assert n <= RAISE_BUDGET, f"{n} > {RAISE_BUDGET}\n" + _show(stats, "raise")


def test_most_programs_agree(stats):
    ok = stats.outcomes["ok"] + stats.outcomes["documented"]
    assert ok >= 0.9 * stats.programs, dict(stats.outcomes)


def main(run, default_n):
    """``python tests/<file>.py [N]``: run N programs (``run(tmp_dir, n)``)
    and print the counts and ``SHOW`` (3) examples of each failing kind."""
    import pathlib
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else default_n
    s = run(pathlib.Path(tempfile.mkdtemp()), n)
    print(f"{s.programs} programs in {s.seconds:.1f} s: {dict(s.outcomes)}; raises: {dict(s.raises)}; "
          f"without temps: {dict(s.clean)}")
    for kind in ("wrong", "raise", "raise-other-type", "documented"):
        for src, inp, py, got, sub, _ in s.examples.get(kind, [])[: int(os.environ.get("SHOW", "3"))]:
            print(f"=== {kind}/{sub} on {inp}: Python {py!r}, staged {got!r}\n{src}")


if __name__ == "__main__":  # python tests/test_staged_random_programs.py [N]: print stats and examples
    main(run_all, N_PROGRAMS)

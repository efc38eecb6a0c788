"""Random programs over dynamic shapes, composite names and early returns,
run four ways: eagerly (the original function on eager tensors: TensorFlow's
own oracle), converted with the functional form forced (eager), staged by
tf.function with an input signature whose vector has a None dimension (one
trace for every input), and staged without a signature (one trace per input
shape). The staged runs must give the eager answer or raise an error
TensorFlow documents.

A program `prog_N(v, a)` takes an int32 vector `v` of any length (0
included) and an int32 scalar `a`, and on top of the staged generator's
if/elif/else, staged and Python loops, break/continue/return at any depth
(tests/test_staged_random_programs.py) has:
- loops over the vector's dynamic first dimension: `for e in v`,
  `for i in tf.range(tf.shape(v)[0])` reading `v[i]`, `for i, e in
  enumerate(u)`, `while j < tf.size(v)` with a tensor-dependent trip count;
- a vector `u` (shape (None,) under the signature) updated elementwise in
  loops and ifs, shrunk by `u = u[1:]` in a `while` (a loop variable whose
  shape changes: TensorFlow's documented error without a signature),
  reshaped with `tf.reshape(..., [-1])`;
- a vector `g` grown by `tf.concat` under `set_loop_options(shape_invariants=)`;
- composite names written in staged loops and ifs: `o.v`, `o.p.q` (an
  attribute of an attribute), `d['k']`, `arr[0]`, `arr[j]` with `j` a
  Python loop index, `d[key]` with `key` a Python loop's string, and
  `self.s` / `self.p.q` when the program is a method;
- nested functions and lambdas reading loop variables;
- returns at any depth of staged ifs and loops, on some paths only; a
  program in seven falls off its end where no return ran (Python's None:
  TensorFlow's "must also have a return statement", or the graph's error
  when the path it takes has no return).
A tensor break/return inside a Python loop is never generated (TensorFlow
rejects it: seed 000).

AG_DYNAMIC_PROGRAMS (default 150) programs, seed AG_RANDOM_SEED (default 0).
`python tests/test_staged_dynamic_random.py N` prints outcomes and examples.
"""
from __future__ import annotations

import os
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest

from _differential import TimeLimit, exec_converted, forced_functional, time_limit
from test_staged_random_programs import PER_MODULE, Gen, _load

N_PROGRAMS = int(os.environ.get("AG_DYNAMIC_PROGRAMS", "150"))
SEED = int(os.environ.get("AG_RANDOM_SEED", "0"))
INPUTS = [([3, -1, 4], 5), ([], 2), ([7], -3), ([2, 9, -5, 0, 6], 11)]

PRELUDE = '''import autograph_cli.tf as tf


class Box:
    pass


'''

# errors TensorFlow documents for programs a graph cannot express
DOCUMENTED = [
    (ValueError, r"must also be initialized in the (main|else) branch"),
    (UnboundLocalError, r""),
    # a function returning a value on some paths and falling off its end (None) on others
    (ValueError, r"branch must also have a return statement"),
    (Exception, r"reached its end without a return statement on the path the graph took"),
]
# without an input signature a vector's shape is static, so a loop that
# shrinks it changes a loop variable's shape: TensorFlow's error
DOCUMENTED_NO_SIGNATURE = DOCUMENTED + [
    (ValueError, r"has shape \(\d+,\) before the loop, but shape \(\d*,?\) after one iteration"),
    # `u[0]` in the body of `while tf.size(u) > 0:` traced with u of static shape (0,): TensorFlow's
    # strided_slice shape inference fails while tracing, with this message
    (ValueError, r"slice index 0 of dimension 0 out of bounds"),
    # both branches / every iteration traced: shapes a path Python skipped would mismatch
    (ValueError, r"Dimensions must be equal, but are \d+ and \d+"),
]


class DynamicGen(Gen):
    PRIMES = (97, 89, 13, 7, 5)

    def __init__(self, rng, method=False):
        super().__init__(rng)
        self.method = method
        self.me = "self" if method else "o"
        me = self.me
        self.NAMES = ["a", "x", "y", "z", f"{me}.v", f"{me}.p.q", "d['k']", "arr[0]"]
        self.COMPOSITES = [f"{me}.v", f"{me}.p.q", "d['k']", "d['m']", "arr[0]", "arr[1]"]
        self.RETURN = f"x, y, z, {me}.v, {me}.p.q, d['k'], d['m'], arr, u, g"
        self.PROLOGUE = [
            "x = a % 11", "y = tf.size(v) % 7", "z = 1",
            *([] if method else ["o = Box()"]),
            f"{me}.v = a % 5", f"{me}.p = Box()", f"{me}.p.q = tf.shape(v)[0] % 3",
            "d = {'k': a % 3, 'm': 2}",
            "arr = [x, 1]",
            "u = v % 13",
            "g = tf.zeros([0], tf.int32)",
            "def h(t):",
            "    return (t * 3 + z) % 13",
        ]
        self.vec_loops = 0

    # ------------------------------------------------------------ expressions
    def atom(self, names):
        k = self.r.random()
        if k < 0.04:
            return f"h({self.r.choice(names)})"
        if k < 0.06:
            return f"(lambda t: t * 2 + 1)({self.r.choice(names)})"
        if k < 0.10:
            return self.r.choice(["(tf.reduce_sum(u) % 13)", "tf.size(u)", "tf.shape(v)[0]",
                                  "(tf.reduce_sum(g) % 7)", "tf.size(g)"])
        return super().atom(names)

    def vec_expr(self, names):
        k = self.r.random()
        s = self.expr(names, 1)
        if k < 0.4:
            return f"(u + {s}) % 13"
        if k < 0.6:
            return "(u * 2 - u // 3) % 13"
        if k < 0.8:
            return f"tf.where(u > {s}, u - 1, u + {s}) % 13"
        return f"(tf.reduce_sum(tf.reshape(tf.stack([u, u * 3]), [2, -1]), 0) + {s}) % 13"

    # ------------------------------------------------------------ statements
    def stmt(self, ctx, depth, indent):
        pad = "    " * indent
        names = ctx["names"]
        p = self.r.random()
        if p < 0.14:  # a composite name written
            tgt = self.r.choice(self.COMPOSITES)
            return [f"{pad}{tgt} = ({tgt} + {self.expr(names)}) % {self.r.choice(self.PRIMES)}"]
        if p < 0.18:  # augmented assignment to a composite name
            tgt = self.r.choice(self.COMPOSITES)
            return [f"{pad}{tgt} += {self.expr(names, 1)}", f"{pad}{tgt} %= {self.r.choice(self.PRIMES)}"]
        if p < 0.24:  # the vector updated elementwise
            return [f"{pad}u = {self.vec_expr(names)}"]
        if depth < 2 and p < 0.27:  # a Python loop writing items by a Python index / key
            self.loops += 1
            j = f"j{self.loops}"
            if self.chance(0.5):
                return [f"{pad}for {j} in range(2):",
                        f"{pad}    arr[{j}] = (arr[{j}] + {self.expr(names, 1)}) % 13"]
            return [f"{pad}for {j} in ('k', 'm'):",
                    f"{pad}    d[{j}] = (d[{j}] * 2 + {self.expr(names, 1)}) % 89"]
        if depth < 2 and p < 0.33 and ctx["loop"] is None:
            return self.grow_loop(ctx, depth, indent)
        if depth < 2 and p < 0.37:
            return self.shrink_loop(ctx, depth, indent)
        if depth < 2 and p < 0.47:
            return self.vector_loop(ctx, depth, indent)
        if p < 0.49:  # a closure over the current values
            self.loops += 1
            k = f"k{self.loops}"
            return [f"{pad}def {k}(t):",
                    f"{pad}    return (t + {self.r.choice(names)} * 2) % 11",
                    f"{pad}x = {k}(x)"]
        if ctx["loop"] is None and p < 0.52:
            # a staged if growing g in one branch: the branches' shapes differ
            return [f"{pad}if {self.cond(names)}:",
                    f"{pad}    g = tf.concat([g, [{self.expr(names, 1)} % 7]], 0)",
                    f"{pad}else:",
                    f"{pad}    g = g * 2"]
        return self.base_stmt(ctx, depth, indent)

    def base_stmt(self, ctx, depth, indent):
        """The base generator's statements (assignments, if/elif/else, loops,
        break/continue/return), except that a jump is never under a tensor
        condition inside a Python loop it leaves (TensorFlow's error, seed
        000): ``ctx['tjump']`` says a staged if/loop was entered since the
        innermost Python loop began, ``ctx['tret']`` since any Python loop."""
        pad = "    " * indent
        names = ctx["names"]
        kinds = ["assign", "assign", "assign"]
        if depth < 2:
            kinds += ["if", "if", "for_py", "for_staged", "while"]
        elif depth < 3:
            kinds += ["if"]
        loop = ctx["loop"]
        if loop and not ctx.get("tjump"):
            kinds += ["break"] + ([] if ctx.get("no_continue") else ["continue"])
        if not ctx.get("tret"):
            kinds += ["return"] if self.chance(0.5) else []
        kinds += ["temp"] if self.chance(0.3) else []
        kind = self.r.choice(kinds)
        if kind == "assign":
            tgt = self.r.choice(["x", "y", "x", "y", "z"])
            return [f"{pad}{tgt} = {self.expr(names)} % {self.r.choice(self.PRIMES)}"]
        if kind == "temp":
            self.temps += 1
            t = f"t{self.temps}"
            ctx["pending"].append(t)
            return [f"{pad}{t} = {self.expr(names)} % 13"]
        if kind == "if":
            staged = not self.chance(0.25)
            c = self.cond(names) if staged else self.py_cond(ctx["py"])
            inner = self.staged_ctx(ctx) if staged else ctx
            out = [f"{pad}if {c}:"] + self.block(inner, depth + 1, indent + 1)
            r = self.r.random()
            if r < 0.3:
                out += [f"{pad}elif {self.cond(names)}:"] + self.block(self.staged_ctx(ctx), depth + 1, indent + 1)
            if r < 0.7:
                out += [f"{pad}else:"] + self.block(inner, depth + 1, indent + 1)
            return out + self.flush(ctx, pad)
        if kind in ("for_py", "for_staged", "while"):
            self.loops += 1
            n = self.loops
            inner = dict(ctx, loop=kind, py=list(ctx["py"]), py_loop=False, tjump=False)
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
                inner["tret"] = bool(ctx["py"]) or ctx.get("tret", False)
                head = [f"{pad}for {i} in range({self.r.choice(['a', 'x', 'y'])} % {self.r.randint(2, 5)}):"]
                first = []
            else:
                w = f"w{n}"
                if self.chance(0.5):  # tensor test
                    head = [f"{pad}{w} = a * 0", f"{pad}while {w} < {self.r.choice(['a', 'y', 'x'])} % 4:"]
                    inner["tret"] = bool(ctx["py"]) or ctx.get("tret", False)
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
        if kind in ("break", "continue"):
            c = self.py_cond(ctx["py"]) if (ctx.get("py_loop") and self.chance(0.85)) else (
                self.cond(names) if not ctx.get("py_loop") else "True")
            return [f"{pad}if {c}:", f"{pad}    {kind}"]
        c = self.py_cond(ctx["py"]) if ctx["py"] else self.cond(names)
        return [f"{pad}if {c}:", f"{pad}    return {self.RETURN}"]

    @staticmethod
    def staged_ctx(ctx):
        """The context inside a staged if."""
        if not ctx["py"]:
            return ctx
        return dict(ctx, tjump=ctx.get("py_loop", False) or ctx.get("tjump", False), tret=True)

    def cond(self, names, depth=1):
        if self.chance(0.1):
            return self.r.choice([f"tf.reduce_any(u > {self.atom(names)})",
                                  f"tf.size(u) > {self.r.randint(0, 3)}",
                                  f"tf.reduce_sum(g) > {self.atom(names)}"])
        return super().cond(names, depth)

    def grow_loop(self, ctx, depth, indent):
        """g grown in a staged loop under a shape invariant."""
        pad = "    " * indent
        self.loops += 1
        n = self.loops
        k = self.r.random()
        if k < 0.4:
            i = f"i{n}"
            head = [f"{pad}for {i} in tf.range(tf.shape(v)[0]):"]
            names = ctx["names"] + [i, f"v[{i}]"]
            first = []
        elif k < 0.7:
            e = f"e{n}"
            head = [f"{pad}for {e} in u:"]
            names = ctx["names"] + [e]
            first = []
        else:
            w = f"w{n}"
            head = [f"{pad}{w} = 0", f"{pad}while {w} < tf.size(v) + a % 3:"]
            names = ctx["names"] + [w]
            first = [f"{pad}    {w} += 1"]
        inner = dict(ctx, loop="grow", py=list(ctx["py"]), py_loop=False, names=names, tjump=False, tret=bool(ctx["py"]) or ctx.get("tret", False))
        body = [f"{pad}    tf.autograph.experimental.set_loop_options("
                f"shape_invariants=[(g, tf.TensorShape([None]))])"] + first
        if self.chance(0.3):
            body += [f"{pad}    if {self.cond(names)}:", f"{pad}        continue"]
        body.append(f"{pad}    g = tf.concat([g, [{self.expr(names, 1)} % 13]], 0)")
        if self.chance(0.5):
            body += self.block(inner, depth + 1, indent + 1)
        return head + body + self.flush(ctx, pad)

    def shrink_loop(self, ctx, depth, indent):
        """u shrunk from the front while it is long enough: a loop variable of
        dynamic shape."""
        pad = "    " * indent
        self.loops += 1
        inner = dict(ctx, loop="shrink", py=list(ctx["py"]), py_loop=False, names=ctx["names"], tjump=False, tret=bool(ctx["py"]) or ctx.get("tret", False))
        out = [f"{pad}while tf.size(u) > {self.r.randint(0, 3)}:",
               f"{pad}    x = (x + u[0]) % 97",
               f"{pad}    u = u[1:]"]
        if self.chance(0.5):
            out += self.block(inner, depth + 1, indent + 1)
        return out + self.flush(ctx, pad)

    def vector_loop(self, ctx, depth, indent):
        """A staged loop over the vector's dynamic first dimension."""
        pad = "    " * indent
        self.loops += 1
        n = self.loops
        k = self.r.random()
        names = ctx["names"]
        if k < 0.25:
            e = f"e{n}"
            head = [f"{pad}for {e} in {self.r.choice(['v', 'u', 'tf.reshape(tf.stack([v, v]), [-1])'])}:"]
            names = names + [e]
            first = []
        elif k < 0.5:
            i = f"i{n}"
            head = [f"{pad}for {i} in tf.range(tf.shape(v)[0]):"]
            names = names + [i, f"v[{i}]"]
            first = []
        elif k < 0.65:
            i, e = f"i{n}", f"e{n}"
            head = [f"{pad}for {i}, {e} in enumerate(v):"]
            names = names + [i, e]
            first = []
        elif k < 0.8:
            i = f"i{n}"
            head = [f"{pad}for {i} in range(tf.size(v) - 1, -1, -1):"]
            names = names + [i, f"v[{i}]"]
            first = []
        else:
            j = f"w{n}"
            head = [f"{pad}{j} = 0", f"{pad}while {j} < tf.size(v):"]
            first = [f"{pad}    {j} += 1"] if self.chance(0.5) else []
            names = names + [j] + ([] if first else [f"v[{j}]"])
            if not first:  # increment at the end, after the body (continue must not skip it)
                inner = dict(ctx, loop="while_end", py=list(ctx["py"]), py_loop=False, names=names, tjump=False, tret=bool(ctx["py"]) or ctx.get("tret", False))
                body = self.block(inner, depth + 1, indent + 1, no_continue=True)
                return head + body + [f"{pad}    {j} += 1"] + self.flush(ctx, pad)
        inner = dict(ctx, loop="vector", py=list(ctx["py"]), py_loop=False, names=names, tjump=False, tret=bool(ctx["py"]) or ctx.get("tret", False))
        body = first + self.block(inner, depth + 1, indent + 1)
        return head + body + self.flush(ctx, pad)

    def block(self, ctx, depth, indent, no_continue=False):
        if no_continue:
            ctx = dict(ctx, no_continue=True)
        lines = []
        for _ in range(self.r.randint(1, 3 if depth < 2 else 2)):
            lines += self.stmt(ctx, depth, indent)
        if ctx.get("no_continue"):
            lines = [ln for ln in lines if ln.strip() != "continue"] or [" " * (4 * indent) + "pass"]
            lines = _drop_empty_ifs(lines)
        return lines

    def program(self, name):
        ctx = {"names": list(self.NAMES), "loop": None, "py": [], "pending": []}
        if self.method:
            head = [f"class {name}_K:", "    def run(self, v, a):"]
            pre = "        "
        else:
            head = [f"def {name}(v, a):"]
            pre = "    "
        body = []
        for _ in range(self.r.randint(2, 4)):
            body += self.stmt(ctx, 0, 1)
        body += self.flush(ctx, "    ")
        if self.r.random() < 0.85:  # else: falls off its end where no early return ran (Python's None)
            body.append(f"    return {self.RETURN}")
        lines = head + [pre + line for line in self.PROLOGUE] + [
            ("    " + ln if self.method else ln) for ln in body]
        if self.method:
            lines += ["", "", f"def {name}(v, a):", f"    return {name}_K().run(v, a)"]
        return "\n".join(lines + [""])


def _drop_empty_ifs(lines):
    """Remove `if c:` lines left without a body by dropping `continue`."""
    out = []
    for k, ln in enumerate(lines):
        if ln.rstrip().endswith(":"):
            ind = len(ln) - len(ln.lstrip())
            nxt = lines[k + 1] if k + 1 < len(lines) else ""
            if len(nxt) - len(nxt.lstrip()) <= ind:
                out.append(ln)
                out.append(" " * (ind + 4) + "pass")
                continue
        out.append(ln)
    return out


# ---------------------------------------------------------------- running
def _plain(v):
    import autograph_cli.tf as tf

    if isinstance(v, tf.Tensor):
        return v.numpy().tolist()
    if isinstance(v, (tuple, list)):
        return tuple(_plain(x) for x in v)
    return v


def _call(fn, *args):
    try:
        with time_limit(20):
            return ("value", _plain(fn(*args)))
    except (Exception, TimeLimit) as e:  # noqa: BLE001 - an observation (a hang is a TimeLimit)
        return ("raise", e)


def _classify(py, st, documented):
    if py[0] == "value":
        if st[0] == "value":
            return "ok" if st[1] == py[1] else "wrong"
        return "documented" if any(isinstance(st[1], t) and re.search(rx, str(st[1]))
                                   for t, rx in documented) else "raise"
    if st[0] == "value":
        return "wrong"
    documented_error = any(isinstance(st[1], t) and re.search(rx, str(st[1])) for t, rx in documented)
    return "ok" if isinstance(st[1], type(py[1])) or documented_error else "raise-other-type"


def _describe(o):
    return o[1] if o[0] == "value" else f"{type(o[1]).__name__}: {str(o[1])[:300]}"


SEVERITY = ["ok", "documented", "raise-other-type", "raise", "wrong"]


@dataclass
class Stats:
    outcomes: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)
    seconds: float = 0.0
    programs: int = 0


def run(tmp_dir, n_programs=N_PROGRAMS, seed=SEED):
    import autograph_cli.tf as tf
    import converters

    stats = Stats()
    rng = random.Random(seed)
    start = time.perf_counter()
    sig = [tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32)]
    for m in range(0, n_programs, PER_MODULE):
        count = min(PER_MODULE, n_programs - m)
        sources = [DynamicGen(rng, method=rng.random() < 0.25).program(f"prog_{m + k}")
                   for k in range(count)]
        text = PRELUDE + "\n\n".join(sources)
        path = tmp_dir / f"_random_dynamic_{seed}_{m}.py"
        path.write_text(text)
        orig = _load(path, f"_random_dynamic_orig_{seed}_{m}")
        result = converters.convert(text, filename=str(path), fast_path=True)
        conv = exec_converted(result, f"_random_dynamic_conv_{seed}_{m}", str(path))
        for k, src in enumerate(sources):
            name = f"prog_{m + k}"
            stats.programs += 1
            fo, fc = getattr(orig, name), getattr(conv, name)
            with_sig = tf.function(fc, input_signature=sig)
            no_sig = tf.function(fc)
            worst, example = "ok", None
            for vec, a in INPUTS:
                args = (tf.constant(vec, tf.int32), tf.constant(a))
                py = _call(fo, *args)
                with forced_functional():
                    cv = _call(fc, *args)
                same = (cv[0], cv[1] if cv[0] == "value" else type(cv[1])) == (
                    py[0], py[1] if py[0] == "value" else type(py[1]))
                runs = [("converted-differs", "ok" if same else "wrong", cv)]
                if same:
                    st = _call(with_sig, *args)
                    runs.append(("signature", _classify(py, st, DOCUMENTED), st))
                    st = _call(no_sig, *args)
                    runs.append(("no-signature", _classify(py, st, DOCUMENTED_NO_SIGNATURE), st))
                for sub, kind, got in runs:
                    if SEVERITY.index(kind) > SEVERITY.index(worst):
                        worst = kind
                        example = (src, (vec, a), _describe(py), _describe(got), sub, got[1])
            stats.outcomes[worst] += 1
            if example is not None:
                stats.examples.setdefault(worst, []).append(example)
    stats.seconds = time.perf_counter() - start
    return stats


def _show(stats, kind, n=3):
    out = []
    for src, inp, py, got, sub, _ in stats.examples.get(kind, [])[:n]:
        out.append(f"--- {sub} on {inp}: eager {py!r}, staged {got!r}\n{src}")
    return "\n".join(out)


_STATS = {}


@pytest.fixture(scope="module")
def stats(tmp_path_factory):
    if "s" not in _STATS:
        _STATS["s"] = run(tmp_path_factory.mktemp("random_dynamic"))
    return _STATS["s"]


def test_programs_use_the_constructs():
    rng = random.Random(SEED)
    text = "\n".join(DynamicGen(rng, method=k % 4 == 0).program(f"p{k}") for k in range(N_PROGRAMS))
    for needle in ("for e", "in tf.range(tf.shape(v)[0])", "in enumerate(v)", "while w", "< tf.size(v)",
                   "u = u[1:]", "tf.reshape(", "shape_invariants", "g = tf.concat", "o.p.q = (o.p.q",
                   "self.p.q", "self.v", "d['k']", "arr[0]", "in ('k', 'm')", "arr[j", "def k",
                   "lambda t", "break", "continue", "return x", "+= ", "%= ", "-1, -1)"):
        assert needle in text, needle


def test_no_wrong_answers(stats):
    assert stats.outcomes["wrong"] == 0, _show(stats, "wrong")


def test_no_undocumented_errors(stats):
    n = stats.outcomes["raise"] + stats.outcomes["raise-other-type"]
    assert n == 0, _show(stats, "raise") + _show(stats, "raise-other-type")


def test_most_programs_agree(stats):
    """(Without a signature, the empty vector makes `u[0]` in a loop that
    Python never enters TensorFlow's trace-time slice error: documented,
    and common.)"""
    assert stats.outcomes["ok"] >= 0.6 * stats.programs, dict(stats.outcomes)


if __name__ == "__main__":
    import pathlib
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else N_PROGRAMS
    s = run(pathlib.Path(tempfile.mkdtemp()), n, int(os.environ.get("AG_RANDOM_SEED", "0")))
    print(f"{s.programs} programs in {s.seconds:.1f} s: {dict(s.outcomes)}")
    for kind in ("wrong", "raise", "raise-other-type", "documented"):
        for src, inp, py, got, sub, _ in s.examples.get(kind, [])[: int(os.environ.get("SHOW", "3"))]:
            print(f"=== {kind}/{sub} on {inp}: eager {py!r}, staged {got!r}\n{src}")

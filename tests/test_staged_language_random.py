"""Random programs over more of the language inside staged functions, run
the same four ways as tests/test_staged_random_programs.py (plain Python,
converted with the functional form forced, traced on Python values, staged
on int32 tensors), with the same oracle: the staged run equals plain Python
or raises an error TensorFlow documents.

On top of that generator's if/elif/else, staged and Python loops,
break/continue/return at any depth, and/or/not and ternaries, a program here
also has:
- `for`/`else` and `while`/`else` around staged loops whose `break` sits
  under a tensor condition, nested two deep with break/continue at both
  levels;
- tuple-unpacking assignments (`x, y = y, (x + y) % 13`,
  `(x, y), z = (y, z), x`) and targets (`for i, e in enumerate(t)`,
  `for p, q in zip(t1, t2)`);
- augmented assignment to list items in Python loops (`v[j] += x`), and to
  attributes in staged loops and ifs (`o.n += i`);
- chained comparisons of tensors (`e1 < e2 <= e3`, computed operands),
  `and`/`or` whose later operands assign a tf.Variable (a side effect that
  must run only where Python's short-circuit evaluates the operand);
- ternaries nested in loop conditions;
- lambdas and functions defined in staged loops (closures over the loop
  variable); list comprehensions over Python ranges (`sum`, `tf.add_n`),
  and over a tensor (TensorFlow's error: iterating a symbolic tensor);
- `del` of a loop-local; a `global` and a nested function's `nonlocal`
  names written in staged control flow;
- try/except/finally around staged control flow; `with tf.name_scope()`
  inside loops; `assert` on tensor conditions (Python's AssertionError:
  TensorFlow's InvalidArgumentError, which is both here);
- tf.while_loop / tf.cond / tf.switch_case / tf.case called directly with
  lambdas, inside converted control flow; tf.range with negative and float
  steps; range() with tensor bounds and negative tensor steps.

AG_LANGUAGE_PROGRAMS (default 150) programs, seed AG_RANDOM_SEED (default 0).
`python tests/test_staged_language_random.py N` prints outcomes and examples.
"""
from __future__ import annotations

import os

import pytest

from test_staged_random_programs import DOCUMENTED, Gen, _show, main, run_all

N_PROGRAMS = int(os.environ.get("AG_LANGUAGE_PROGRAMS", "150"))
SEED = int(os.environ.get("AG_RANDOM_SEED", "0"))

PRELUDE = '''import autograph_cli.tf as tf

G = 0
V = tf.Variable(0)


class Box:
    pass


def bump(t):
    """A side effect (the variable counts the calls) and a condition."""
    V.assign_add(1)
    return t % 3 != 0


'''

# on top of the staged generator's: errors TensorFlow documents for what these programs do
LANGUAGE_DOCUMENTED = DOCUMENTED + [
    # a list comprehension over a symbolic tensor: TensorFlow's OperatorNotAllowedInGraphError
    (TypeError, r"Iterating over a symbolic tf.Tensor .* is not allowed"),
    # a function returning a value on some paths and falling off its end (None) on others
    (ValueError, r"branch must also have a return statement"),
    (Exception, r"reached its end without a return statement on the path the graph took"),
]


class LanguageGen(Gen):
    """The staged generator with more of the language."""

    NAMES = ["a", "b", "x", "y", "z", "o.n", "v[0]", "v[2]"]
    PROLOGUE = [
        "global G",
        "V.assign(0)",
        "G = 0",
        "x = a % 11", "y = b % 7", "z = 1",
        "o = Box()", "o.n = a % 5",
        "v = [x, y, 1]",
    ]
    RETURN = "x, y, z, o.n, v, G, V.read_value()"

    def __init__(self, rng):
        super().__init__(rng)
        self.defs = 0

    def atom(self, names):
        if self.chance(0.02):
            return f"(lambda t: t * 2 + 1)({self.r.choice(names)})"
        return super().atom(names)

    def cond(self, names, depth=1):
        k = self.r.random()
        if k < 0.12:  # a chained comparison (computed operands)
            ops = [self.r.choice(["<", "<=", "!=", ">", ">=", "=="]) for _ in range(self.r.randint(2, 3))]
            parts = [self.expr(names, 1)]
            for op in ops:
                parts += [op, self.expr(names, 1)]
            return " ".join(parts)
        if k < 0.18:  # a side effect in a later operand of and/or
            op = self.r.choice(["and", "or"])
            return f"({super().cond(names, 0)}) {op} bump({self.expr(names, 1)})"
        return super().cond(names, depth)

    def inner(self, ctx, kind, names, py_loop=False):
        return dict(ctx, loop=kind, py=list(ctx["py"]), py_loop=py_loop, names=names)

    def stmt(self, ctx, depth, indent):
        pad = "    " * indent
        names = ctx["names"]
        p = self.r.random()
        if p < 0.05:  # tuple unpacking
            return [self.r.choice([f"{pad}x, y = y, (x + {self.expr(names, 1)}) % 13",
                                   f"{pad}(x, y), z = (y, z), x % 7",
                                   f"{pad}x, (y, z) = (y + 1) % 11, (z, {self.expr(names, 1)} % 5)"])]
        if p < 0.09:  # augmented assignment to an attribute
            op = self.r.choice(["+=", "-=", "*="])
            return [f"{pad}o.n {op} {self.expr(names, 1)}", f"{pad}o.n %= {self.r.choice(self.PRIMES)}"]
        if p < 0.12:  # list items augmented in a Python loop
            self.loops += 1
            j = f"j{self.loops}"
            return [f"{pad}for {j} in range(3):",
                    f"{pad}    v[{j}] += {self.expr(names + [j], 1)}",
                    f"{pad}    v[{j}] %= {self.r.choice(self.PRIMES)}"]
        if p < 0.14:  # a comprehension over a Python range
            k = f"k{self.loops + 1}"
            self.loops += 1
            if self.chance(0.5):
                return [f"{pad}x = (x + sum([{k} * {self.r.choice(names)} for {k} in range(3)])) % 97"]
            return [f"{pad}y = tf.add_n([{self.expr(names, 1)} + {k} for {k} in range(1, 3) if {k} != 0]) % 89"]
        if p < 0.145:  # a comprehension over a tensor: TensorFlow's error when staged
            return [f"{pad}y = (y + tf.add_n([e * 2 for e in tf.stack([x, y])])) % 89"]
        if p < 0.17:  # the global, written
            return [f"{pad}G = (G + {self.expr(names, 1)}) % 13"]
        if p < 0.19:
            return [f"{pad}assert {self.r.choice(['x', 'y', 'o.n', 'x + y'])} != {self.r.randint(20, 40)}, "
                    f"'unexpected value'"]
        if p < 0.22:  # tf.cond / tf.switch_case / tf.case called directly
            k = self.r.random()
            tgt = self.r.choice(["x", "y", "z"])
            e = [self.expr(names, 1) for _ in range(3)]
            if k < 0.4:
                call = f"tf.cond({self.cond(names, 0)}, lambda: {e[0]}, lambda: {e[1]})"
            elif k < 0.7:
                branches = f"[lambda: {e[0]}, lambda: {e[1]}, lambda: {e[2]}]" if self.chance(0.5) else \
                    f"{{0: lambda: {e[0]}, 2: lambda: {e[1]}}}, default=lambda: {e[2]}"
                call = f"tf.switch_case(({self.expr(names, 1)}) % {self.r.randint(2, 5)}, {branches})"
            else:
                default = f", default=lambda: {e[2]}" if self.chance(0.7) else ""
                call = (f"tf.case([({self.cond(names, 0)}, lambda: {e[0]}), "
                        f"({self.cond(names, 0)}, lambda: {e[1]})]{default})")
            return [f"{pad}{tgt} = {call} % {self.r.choice(self.PRIMES)}"]
        if depth >= 2:
            return super().stmt(ctx, depth, indent)
        if p < 0.25:  # tf.while_loop called directly
            return [f"{pad}x, y = tf.while_loop(lambda p, q: p < {self.r.choice(['a', 'b', 'z'])} % 5, "
                    f"lambda p, q: (p + 1, (q * 2 + {self.expr(names, 1)}) % 13), [x % 3, y])"]
        if p < 0.31:
            return self.else_loop(ctx, depth, indent)
        if p < 0.34:
            return self.nested_loops(ctx, depth, indent)
        if p < 0.37:  # unpacking targets over tensors
            self.loops += 1
            i, e1, e2 = f"i{self.loops}", f"e{self.loops}", f"g{self.loops}"
            head, bound = self.r.choice([
                (f"for {i}, {e1} in enumerate(tf.stack([{self.expr(names, 1)}, y, b])):", [i, e1]),
                (f"for {e1}, {e2} in zip(tf.stack([a, x, y]), tf.stack([b, {self.expr(names, 1)}, x])):", [e1, e2]),
                (f"for {i}, ({e1}, {e2}) in enumerate(zip(tf.stack([x, y]), tf.stack([a, b]))):", [i, e1, e2])])
            inner = self.inner(ctx, "for_tensor", names + bound)
            return [f"{pad}{head}"] + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad)
        if p < 0.40:  # a lambda and a function defined in a staged loop, closing over its variable
            self.loops += 1
            i = f"i{self.loops}"
            inner = self.inner(ctx, "for_staged", names + [i])
            return ([f"{pad}for {i} in range({self.r.choice(['a', 'b', 'x'])} % 4):",
                     f"{pad}    step{self.loops} = lambda u: (u + {i} * {self.atom(names)}) % 11",
                     f"{pad}    def twice{self.loops}(u):",
                     f"{pad}        return step{self.loops}(step{self.loops}(u))",
                     f"{pad}    {self.r.choice(['x', 'y'])} = twice{self.loops}({self.r.choice(names)})"]
                    + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad))
        if p < 0.43:  # del of a loop-local
            self.loops += 1
            i, t = f"i{self.loops}", f"d{self.loops}"
            inner = self.inner(ctx, "for_staged", names + [i])
            return ([f"{pad}for {i} in range({self.r.choice(['a', 'b', 'y'])} % 4):",
                     f"{pad}    {t} = ({self.expr(names + [i])}) % 13",
                     f"{pad}    x = (x + {t}) % 97",
                     f"{pad}    del {t}"]
                    + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad))
        if p < 0.46 and depth == 0:  # a nested function's nonlocal names written in staged control flow
            self.defs += 1
            f = f"run{self.defs}"
            inner = dict(ctx, loop=None, py=[], py_loop=False, pending=[], in_def=True)
            body = self.block(inner, depth + 1, indent + 1) + self.flush(inner, pad + "    ")
            return [f"{pad}def {f}():", f"{pad}    global G", f"{pad}    nonlocal x, y, z"] + body + [f"{pad}{f}()"]
        if p < 0.50:  # try/except/finally around staged control flow
            out = [f"{pad}try:"] + self.block(ctx, depth + 1, indent + 1)
            if self.chance(0.6):
                out += [f"{pad}except ZeroDivisionError:", f"{pad}    x = -1"]
            if self.chance(0.7) or not out[-2].startswith(f"{pad}except"):
                out += [f"{pad}finally:", f"{pad}    z = (z + 1) % 7"]
            return out + self.flush(ctx, pad)
        if p < 0.53:  # name scopes inside a staged loop
            self.loops += 1
            i = f"i{self.loops}"
            inner = self.inner(ctx, "for_staged", names + [i])
            return ([f"{pad}for {i} in range({self.r.choice(['a', 'b', 'x'])} % 4):",
                     f"{pad}    with tf.name_scope('step'):"]
                    + self.block(inner, depth + 1, indent + 2) + self.flush(ctx, pad))
        if p < 0.57:  # tf.range with negative or float steps; range() with tensor steps
            self.loops += 1
            i = f"i{self.loops}"
            inner = self.inner(ctx, "for_staged", names + [i])
            k = self.r.random()
            if k < 0.3:
                return ([f"{pad}for {i} in tf.range({self.r.choice(['a', 'x', 'y'])} % 6, -2, -{self.r.randint(1, 3)}):"]
                        + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad))
            if k < 0.5:
                return [f"{pad}for {i} in tf.range(0.0, tf.cast({self.r.choice(['a', 'b'])} % 3, tf.float32), 0.5):",
                        f"{pad}    z = (z + tf.cast({i} * 2.0, tf.int32)) % 7"]
            if k < 0.75:
                head = f"for {i} in range(9, {self.r.choice(['-1', '2', 'x % 3'])}, -({self.r.choice(['a', 'b', 'y'])} % 3 + 1)):"
            else:
                head = f"for {i} in range({self.r.choice(['a', 'x'])} % 3, 9, {self.r.choice(['b', 'y'])} % 4 + 1):"
            return [f"{pad}{head}"] + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad)
        if p < 0.60:  # a ternary nested in a loop condition
            self.loops += 1
            w = f"w{self.loops}"
            inner = self.inner(ctx, "while", names + [w])
            bound = (f"({self.r.choice(['a', 'b'])} % 4 if {self.cond(names, 0)} else "
                     f"({self.r.choice(['x', 'y'])} % 3 if {self.cond(names, 0)} else 2))")
            return ([f"{pad}{w} = a * 0", f"{pad}while {w} < {bound}:", f"{pad}    {w} = {w} + 1"]
                    + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad))
        return super().stmt(ctx, depth, indent)

    def else_loop(self, ctx, depth, indent):
        """A staged for/while with an else clause and a break under a tensor condition."""
        pad = "    " * indent
        self.loops += 1
        n = self.loops
        names = ctx["names"]
        if self.chance(0.5):
            i = f"i{n}"
            head = [f"{pad}for {i} in range({self.r.choice(['a', 'b', 'x'])} % {self.r.randint(3, 6)}):"]
            inner = self.inner(ctx, "for_staged", names + [i])
            first = []
        else:
            i = f"w{n}"
            head = [f"{pad}{i} = a * 0", f"{pad}while {i} < {self.r.choice(['a', 'b', 'x'])} % 5:"]
            inner = self.inner(ctx, "while", names + [i])
            first = [f"{pad}    {i} = {i} + 1"]
        body = first + self.block(inner, depth + 1, indent + 1)
        brk = [f"{pad}    if {self.cond(inner['names'])}:", f"{pad}        break"]
        body = body + brk if self.chance(0.6) else brk + body
        orelse = [f"{pad}else:"] + self.block(dict(ctx, pending=[]), depth + 1, indent + 1)
        return head + body + orelse + self.flush(ctx, pad)

    def nested_loops(self, ctx, depth, indent):
        """Two staged loops, break/continue at both levels, else clauses."""
        pad = "    " * indent
        self.loops += 2
        i, j = f"i{self.loops - 1}", f"j{self.loops}"
        outer = self.inner(ctx, "for_staged", ctx["names"] + [i])
        inner = self.inner(ctx, "for_staged", ctx["names"] + [i, j])
        out = [f"{pad}for {i} in range({self.r.choice(['a', 'b', 'x'])} % 4):",
               f"{pad}    for {j} in range({self.r.choice(['a', 'b', 'y', i])} % 4):"]
        out += [f"{pad}        if {self.cond(inner['names'])}:",
                f"{pad}            {self.r.choice(['break', 'continue'])}"]
        out += self.block(inner, depth + 2, indent + 2)
        if self.chance(0.5):
            out += [f"{pad}    else:", f"{pad}        {self.r.choice(['continue', 'z = (z + 1) % 7'])}"]
        out += [f"{pad}    if {self.cond(outer['names'])}:", f"{pad}        {self.r.choice(['break', 'continue'])}"]
        out += self.block(outer, depth + 1, indent + 1)
        if self.chance(0.4):
            out += [f"{pad}else:", f"{pad}    y = (y + 3) % 89"]
        return out + self.flush(ctx, pad)


def run(tmp_dir, n_programs=N_PROGRAMS, seed=SEED):
    # tf.* calls make tensors on Python inputs too: the run traced on Python
    # values stages conditionals, and may raise the documented errors
    return run_all(tmp_dir, n_programs, seed, gen=LanguageGen, prelude=PRELUDE, tag="language",
                   traced_ok=("ok", "documented"), documented=LANGUAGE_DOCUMENTED)


_STATS = {}


@pytest.fixture(scope="module")
def stats(tmp_path_factory):
    if "s" not in _STATS:
        _STATS["s"] = run(tmp_path_factory.mktemp("random_language"))
    return _STATS["s"]


def test_programs_use_the_constructs():
    """The generator writes what this file says it tests."""
    import random

    rng = random.Random(SEED)
    text = "\n".join(LanguageGen(rng).program(f"p{k}") for k in range(N_PROGRAMS))
    for needle in ("else:\n", "break", "continue", "x, y = y, (x", "(x, y), z = (y, z)", "in enumerate(tf.stack(",
                   "in zip(tf.stack(", "v[j", "o.n +=", " bump(", "lambda u:", "def twice", "for k", "del d",
                   "nonlocal x, y, z", "G = (G +", "try:", "finally:", "except ZeroDivisionError", "tf.name_scope(",
                   "assert ", "tf.while_loop(", "tf.cond(", "tf.switch_case(", "tf.case(", ", -2, -", "0.5):",
                   "range(9, ", "if ", "in tf.stack([x, y])"):
        assert needle in text, needle


def test_no_wrong_answers(stats):
    """No silent mismatch: a wrong value, a value where Python raises, or a
    converted / traced-on-Python-values run that differs from plain Python."""
    assert stats.outcomes["wrong"] == 0, _show(stats, "wrong")


def test_no_undocumented_errors(stats):
    n = stats.outcomes["raise"] + stats.outcomes["raise-other-type"]
    assert n == 0, f"{dict(stats.raises)}\n" + _show(stats, "raise") + _show(stats, "raise-other-type")


def test_most_programs_agree(stats):
    assert stats.outcomes["ok"] >= 0.75 * stats.programs, dict(stats.outcomes)


if __name__ == "__main__":  # python tests/<this file>.py [N]: print stats and examples
    main(run, N_PROGRAMS)

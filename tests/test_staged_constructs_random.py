"""Random programs over the constructs tests/test_staged_random_programs.py's
generator does not write, run the same four ways (plain Python, converted
with the functional form forced, traced on Python values, staged on int32
tensors) with the same oracle: the staged run must equal plain Python or
raise an error TensorFlow documents.

On top of that generator's if/elif/else, staged and Python loops,
break/continue/return at any depth, and/or/not and ternaries, a program here
also has:
- composite names as loop and cond variables: an attribute (`o.v`), dict
  items (`d['k']`), list items (`arr[1]`), read and written anywhere, and
  the dict rebound whole (`d = {...}`);
- a tuple (a nested structure) rebound in loops (`pair = (pair[1], ...)`);
- lists appended to in staged loops (also under conditions, in `while`
  loops, next to break/continue/return), then `tf.stack`ed and `len`'d;
- `range` with a negative step over tensor bounds;
- staged `while` loops whose body grows a vector under
  `set_loop_options(shape_invariants=...)`;
- int64 and float32 state mixed with Python scalars (TensorFlow's rules: a
  Python scalar takes the tensor's dtype), cast from the int values;
- a nested function and a lambda called in expressions, and a function
  defined in a staged loop's body closing over its variable;
- `for` over a tensor (a `tf.stack` of values), over `enumerate(zip(...))`
  and `zip(enumerate(...), ...)` of tensors;
- augmented assignments to names and composite names (`arr[1] *= y`);
- an explicit TensorArray written in a staged loop over a negative-step range.
Loop bounds come from the inputs, so zero-trip loops are common.

AG_CONSTRUCTS_PROGRAMS (default 150) programs, seed AG_RANDOM_SEED (default 0).
`python tests/test_staged_constructs_random.py N` prints outcomes and examples.
"""
from __future__ import annotations

import os

import pytest

from test_staged_random_programs import Gen, _show, main, run_all

N_PROGRAMS = int(os.environ.get("AG_CONSTRUCTS_PROGRAMS", "150"))
SEED = int(os.environ.get("AG_RANDOM_SEED", "0"))

PRELUDE = '''import autograph_cli.tf as tf


class Box:
    pass


'''


class ConstructsGen(Gen):
    """The staged generator with composite names, structures, lists,
    shape invariants and dtypes."""

    NAMES = ["a", "b", "x", "y", "z", "o.v", "d['k']", "arr[1]", "pair[0]", "pair[1]"]
    PROLOGUE = [
        "x = a % 11", "y = b % 7", "z = 1",
        "o = Box()", "o.v = a % 5",
        "d = {'k': b % 3, 'm': 2}",
        "arr = [x, 1]",
        "pair = (y, 2)",
        "q = tf.cast(a % 7, tf.int64)",
        "f = tf.cast(b % 5, tf.float32)",
        "def h(u):",
        "    return (u * 3 + z) % 13",
    ]
    RETURN = "x, y, z, o.v, d['k'], d['m'], arr, pair, q, f"
    COMPOSITES = ["o.v", "d['k']", "d['m']", "arr[0]", "arr[1]"]

    def __init__(self, rng):
        super().__init__(rng)
        self.lists = 0

    def atom(self, names):
        if self.chance(0.04):
            return f"h({self.r.choice(names)})"
        if self.chance(0.02):
            return f"(lambda t: t * 2 + 1)({self.r.choice(names)})"
        return super().atom(names)

    def stmt(self, ctx, depth, indent):
        pad = "    " * indent
        names = ctx["names"]
        p = self.r.random()
        if p < 0.16:  # a composite name written
            tgt = self.r.choice(self.COMPOSITES)
            return [f"{pad}{tgt} = ({tgt} + {self.expr(names)}) % {self.r.choice(self.PRIMES)}"]
        if p < 0.20:  # the dict rebound whole, same structure
            return [f"{pad}d = {{'k': {self.expr(names)} % 13, 'm': (d['m'] + d['k']) % 7}}"]
        if p < 0.24:  # a tuple rebound
            return [f"{pad}pair = (pair[1], ({self.expr(names)}) % 7)"]
        if p < 0.28:  # int64 / float32 state next to Python scalars
            if self.chance(0.5):
                return [f"{pad}q = (q * 3 + tf.cast({self.expr(names)}, tf.int64)) % 101"]
            return [f"{pad}f = f * 0.5 + tf.cast({self.expr(names)}, tf.float32)"]
        if depth < 2 and p < 0.34:
            return self.list_loop(ctx, depth, indent)
        if depth < 2 and p < 0.38:
            return self.shape_invariant_loop(ctx, pad)
        if depth < 2 and p < 0.42:
            return self.negative_range(ctx, depth, indent)
        if p < 0.47:  # augmented assignment to a name or a composite name
            tgt = self.r.choice(["x", "y"] + self.COMPOSITES)
            op = self.r.choice(["+=", "-=", "*="])
            return [f"{pad}{tgt} {op} {self.expr(names, 1)}", f"{pad}{tgt} %= {self.r.choice(self.PRIMES)}"]
        if depth < 2 and p < 0.50:
            return self.tensor_array_loop(ctx, depth, indent)
        if depth < 2 and p < 0.53:
            self.loops += 1
            i, e1, e2 = f"i{self.loops}", f"e{self.loops}", f"g{self.loops}"
            inner = dict(ctx, loop="for_tensor", py=list(ctx["py"]), py_loop=False, names=names + [i, e1, e2])
            pairs = f"zip(tf.stack([{self.expr(names, 1)}, y, b]), tf.stack([x, {self.expr(names, 1)}, a]))"
            head = self.r.choice([f"for {i}, ({e1}, {e2}) in enumerate({pairs}):",
                                  f"for ({i}, {e1}), {e2} in zip(enumerate(tf.stack([a, x, y])), tf.stack([b, y, x])):"])
            return [f"{pad}{head}"] + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad)
        if depth < 2 and p < 0.55:  # a function defined in a loop body, closing over its variable
            self.loops += 1
            i = f"i{self.loops}"
            inner = dict(ctx, loop="for_staged", py=list(ctx["py"]), py_loop=False, names=names + [i])
            return ([f"{pad}for {i} in range({self.r.choice(['a', 'b', 'x'])} % 4):",
                     f"{pad}    def k{self.loops}(u):",
                     f"{pad}        return (u + {i} * {self.atom(names)}) % 11",
                     f"{pad}    x = k{self.loops}(x)"]
                    + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad))
        if depth < 2 and p < 0.57:
            self.loops += 1
            e = f"e{self.loops}"
            inner = dict(ctx, loop="for_tensor", py=list(ctx["py"]), py_loop=False, names=names + [e])
            return ([f"{pad}for {e} in tf.stack([{self.expr(names, 1)}, {self.expr(names, 1)}, x]):"]
                    + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad))
        return super().stmt(ctx, depth, indent)

    def list_loop(self, ctx, depth, indent):
        """A list appended to in a staged loop (a TensorArray), stacked after."""
        pad = "    " * indent
        self.loops += 1
        self.lists += 1
        n, acc = self.loops, f"acc{self.lists}"
        first = self.r.choice(["x", "y", "a"])
        out = [f"{pad}{acc} = [{first}]"]
        if self.chance(0.7):
            i = f"i{n}"
            out.append(f"{pad}for {i} in range({self.r.choice(['a', 'b', 'x'])} % {self.r.randint(2, 5)}):")
            names = ctx["names"] + [i]
            head = []
        else:
            i = f"w{n}"
            out += [f"{pad}{i} = a * 0", f"{pad}while {i} < {self.r.choice(['a', 'b', 'y'])} % 5:"]
            names = ctx["names"] + [i]
            head = [f"{pad}    {i} = {i} + 1"]
        inner = dict(ctx, loop="list", py=list(ctx["py"]), py_loop=False, names=names)
        body = list(head)
        if self.chance(0.5):
            body += self.block(inner, depth + 1, indent + 1)
        append = f"{acc}.append({self.expr(names)} % 13)"
        if self.chance(0.3):
            body += [f"{pad}    if {self.cond(names)}:", f"{pad}        {append}"]
        else:
            body += [f"{pad}    {append}"]
        if self.chance(0.4):
            body += self.block(inner, depth + 1, indent + 1)
        out += body + self.flush(ctx, pad)
        out.append(f"{pad}x = (x + tf.reduce_sum(tf.stack({acc})) + len({acc})) % 97")
        return out

    def tensor_array_loop(self, ctx, depth, indent):
        """An explicit TensorArray written in a staged loop (maybe under a condition)."""
        pad = "    " * indent
        self.loops += 1
        n = self.loops
        ta, i = f"ta{n}", f"i{n}"
        names = ctx["names"] + [i]
        out = [f"{pad}{ta} = tf.TensorArray(tf.int32, size=0, dynamic_size=True)",
               f"{pad}for {i} in range({self.r.choice(['a', 'b', 'x'])} % 5, -1, -1):"]
        inner = dict(ctx, loop="for_staged", py=list(ctx["py"]), py_loop=False, names=names)
        write = f"{ta} = {ta}.write({ta}.size(), {self.expr(names)} % 13)"
        if self.chance(0.4):
            out += [f"{pad}    if {self.cond(names)}:", f"{pad}        {write}"]
        else:
            out.append(f"{pad}    {write}")
        if self.chance(0.5):
            out += self.block(inner, depth + 1, indent + 1)
        out += self.flush(ctx, pad)
        out.append(f"{pad}z = (z + tf.reduce_sum({ta}.stack()) + {ta}.size()) % 7")
        return out

    def shape_invariant_loop(self, ctx, pad):
        """A staged while whose body grows a vector: its shape is (None,)."""
        self.loops += 1
        n = self.loops
        v, w = f"v{n}", f"w{n}"
        names = ctx["names"] + [w]
        out = [f"{pad}{v} = tf.zeros([{self.r.randint(0, 2)}], tf.int32)",
               f"{pad}{w} = a * 0",
               f"{pad}while {w} < {self.r.choice(['a', 'b', 'x'])} % 5:",
               f"{pad}    tf.autograph.experimental.set_loop_options("
               f"shape_invariants=[({v}, tf.TensorShape([None]))])",
               f"{pad}    {w} = {w} + 1"]
        if self.chance(0.3):
            out += [f"{pad}    if {self.cond(names)}:", f"{pad}        continue"]
        out.append(f"{pad}    {v} = tf.concat([{v}, [{self.expr(names)} % 13]], 0)")
        if self.chance(0.3):
            out += [f"{pad}    if {self.cond(names)}:", f"{pad}        break"]
        out.append(f"{pad}y = (y + tf.reduce_sum({v}) * 2 + tf.size({v})) % 89")
        return out

    def negative_range(self, ctx, depth, indent):
        pad = "    " * indent
        self.loops += 1
        i = f"i{self.loops}"
        start = f"{self.r.choice(['a', 'b', 'x', 'y'])} % {self.r.randint(3, 7)}"
        stop = self.r.choice(["-1", "0", "-3", "1"])
        step = self.r.choice(["-1", "-1", "-2"])
        inner = dict(ctx, loop="for_staged", py=list(ctx["py"]), py_loop=False, names=ctx["names"] + [i])
        return ([f"{pad}for {i} in range({start}, {stop}, {step}):"]
                + self.block(inner, depth + 1, indent + 1) + self.flush(ctx, pad))


def run(tmp_dir, n_programs=N_PROGRAMS, seed=SEED):
    # int64/float32 state and tf.stack make tensors on Python inputs too: the
    # run traced on Python values stages conditionals, and may raise the
    # documented errors as the staged run does
    return run_all(tmp_dir, n_programs, seed, gen=ConstructsGen, prelude=PRELUDE, tag="constructs",
                   traced_ok=("ok", "documented"))


_STATS = {}


@pytest.fixture(scope="module")
def stats(tmp_path_factory):
    if "s" not in _STATS:
        _STATS["s"] = run(tmp_path_factory.mktemp("random_constructs"))
    return _STATS["s"]


def test_programs_use_the_constructs():
    """The generator writes what this file says it tests."""
    import random

    rng = random.Random(SEED)
    text = "\n".join(ConstructsGen(rng).program(f"p{k}") for k in range(N_PROGRAMS))
    for needle in (".append(", "tf.stack(acc", "shape_invariants", ", -1):", ", -2):", "d = {'k':",
                   "pair = (pair[1]", "o.v = (o.v", "arr[1] = (arr[1]", "tf.int64))", "tf.float32)",
                   "in tf.stack([", "h(", "lambda t", "break", "continue", "return x", "+= ", "%= ",
                   "tf.TensorArray(", "in enumerate(zip(", "in zip(enumerate(", "    def k"):
        assert needle in text, needle


def test_no_wrong_answers(stats):
    """No silent mismatch: a wrong value, a value where Python raises, or a
    converted / traced-on-Python-values run that differs from plain Python."""
    assert stats.outcomes["wrong"] == 0, _show(stats, "wrong")


def test_no_undocumented_errors(stats):
    n = stats.outcomes["raise"] + stats.outcomes["raise-other-type"]
    assert n == 0, f"{dict(stats.raises)}\n" + _show(stats, "raise") + _show(stats, "raise-other-type")


def test_most_programs_agree(stats):
    assert stats.outcomes["ok"] >= 0.8 * stats.programs, dict(stats.outcomes)


if __name__ == "__main__":  # python tests/<this file>.py [N]: print stats and examples
    main(run, N_PROGRAMS)

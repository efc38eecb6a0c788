"""Random programs run as plain Python and staged on tensors give equal results.

Each program is written to a real module (AutoGraph converts from source);
`LOOP(n)` is `range` in the Python run and `tf.range` in the staged run, so
loops, their breaks/continues/returns and the conditionals inside them are
all staged when the values are tensors.
"""
from __future__ import annotations

import importlib.util
import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import autograph_cli.tf as tf

_counter = itertools.count()

_simple = st.sampled_from(
    [
        "x = x + 3",
        "y = (y * 3 + x) % 101",
        "x = x - y",
        "y = y + 1",
        "x = (x * 2) % 97",
        "x = x // 2",
        "y = y % 7 + x % 5",
    ]
)
_cond = st.sampled_from(["x > y", "x % 2 == 0", "y < 10", "x + y > 20", "(x > 3) and (y < 50)", "not (x < y)"])


_jump = st.sampled_from(["break", "continue"])


@st.composite
def _block(draw, depth, in_loop):
    n = draw(st.integers(1, 3))
    lines = []
    for _ in range(n):
        kinds = ["simple", "simple", "if"]
        if depth < 2:
            kinds += ["for", "while"]
        if in_loop:
            # one kind of jump per loop: the converter currently combines
            # several flags with a plain Python `or` (reported); returns
            # inside loops are tested on their own
            kinds += [in_loop]
        else:
            kinds += ["return"]
        kind = draw(st.sampled_from(kinds))
        if kind == "simple":
            lines.append(draw(_simple))
        elif kind == "if":
            c = draw(_cond)
            body = draw(_block(depth + 1, in_loop))
            orelse = draw(st.one_of(st.none(), _block(depth + 1, in_loop)))
            lines.append(f"if {c}:")
            lines += ["    " + b for b in body]
            if orelse:
                lines.append("else:")
                lines += ["    " + b for b in orelse]
        elif kind == "for":
            lines.append(f"for i in LOOP({draw(st.integers(0, 6))}):")
            lines.append("    x = x + i")
            lines += ["    " + b for b in draw(_block(depth + 1, draw(_jump)))]
        elif kind == "while":
            w = f"w{depth}"
            lines.append(f"{w} = x * 0")
            lines.append(f"while {w} < {draw(st.integers(0, 5))}:")
            lines.append(f"    {w} = {w} + 1")
            lines.append("    x = x + (y % 5) + 1")
            lines += ["    " + b for b in draw(_block(depth + 1, draw(_jump)))]
        elif kind in ("break", "continue"):
            lines.append(f"if {draw(_cond)}:")
            lines.append(f"    {kind}")
        else:
            lines.append(f"if {draw(_cond)}:")
            lines.append("    return x, y")
    return lines


def _module(tmp_path, source):
    name = f"_staged_prog_{next(_counter)}"
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_block(0, None), x0=st.integers(-20, 40), y0=st.integers(0, 30))
def test_random_program_python_vs_staged(tmp_path, body, x0, y0):
    src = "def prog(x, y, LOOP):\n" + "\n".join("    " + line for line in body) + "\n    return x, y\n"
    mod = _module(tmp_path, src)
    try:
        want = mod.prog(x0, y0, range)
    except ZeroDivisionError:
        return
    staged = tf.function(mod.prog)
    got = staged(tf.constant(x0), tf.constant(y0), tf.range)
    assert (int(got[0]), int(got[1])) == want, src
    # eager tensors through the same code (ops run one by one) agree too
    eager = mod.prog(tf.constant(x0), tf.constant(y0), tf.range)
    assert (int(eager[0]), int(eager[1])) == want, src
    # a second call reuses the trace and still agrees
    got2 = staged(tf.constant(x0 + 1), tf.constant(y0), tf.range)
    assert (int(got2[0]), int(got2[1])) == mod.prog(x0 + 1, y0, range), src

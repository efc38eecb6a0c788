"""AutoGraph for JAX: the converted path (``autograph_cli.jax.jit``) against
hand-written ``jax.jit`` code with lax control flow, per call and compile time.

    python benchmarks/bench_jax.py            # --repeat 7 --number 50

Each program is written twice: as plain Python (converted) and by hand with
lax.cond / lax.while_loop / lax.fori_loop / lax.scan. Results are checked
equal first; then calls are timed interleaved (best of --repeat runs of
--number calls, block_until_ready), and the ratio converted / hand is printed
(target: within 1.1x).
"""
from __future__ import annotations

import argparse
import json
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import autograph_cli.jax as agj


# ------------------------------------------------------------ programs
def collatz(x):
    n = 0
    while x != 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        n += 1
    return n


def collatz_hand(x):
    def body(c):
        x, n = c
        x = lax.cond(x % 2 == 0, lambda: x // 2, lambda: 3 * x + 1)
        return x, n + 1

    return lax.while_loop(lambda c: c[0] != 1, body, (x, 0))[1]


def fizzbuzz(n):
    fizz = buzz = both = 0
    for i in range(1, n + 1):
        if i % 15 == 0:
            both += 1
        elif i % 3 == 0:
            fizz += 1
        elif i % 5 == 0:
            buzz += 1
    return fizz, buzz, both


def fizzbuzz_hand(n):
    def body(c):
        i, f, b, fb = c
        f, b, fb = lax.cond(
            i % 15 == 0, lambda: (f, b, fb + 1),
            lambda: lax.cond(i % 3 == 0, lambda: (f + 1, b, fb),
                             lambda: lax.cond(i % 5 == 0, lambda: (f, b + 1, fb), lambda: (f, b, fb))))
        return i + 1, f, b, fb

    _, f, b, fb = lax.while_loop(lambda c: c[0] < n + 1, body, (1, 0, 0, 0))
    return f, b, fb


def sum_until(xs, limit):
    total = 0.0
    for x in xs:
        if total + x > limit:
            break
        total += x
    return total


def sum_until_hand(xs, limit):
    def body(i, c):
        keep, total = c
        go = keep & ~(total + xs[i] > limit)
        return go, jnp.where(go, total + xs[i], total)

    return lax.fori_loop(0, xs.shape[0], body, (jnp.bool_(True), 0.0))[1]


def power_iteration(m, v):
    for _ in range(20):  # a Python loop: unrolled, as a hand-written Python loop is
        v = m @ v
        v = v / jnp.linalg.norm(v)
    lam = v @ (m @ v)
    return lam


def power_iteration_staged(m, v, steps):
    for _ in range(steps):  # a traced trip count: lax.while_loop
        v = m @ v
        v = v / jnp.linalg.norm(v)
    return v @ (m @ v)


def power_iteration_hand(m, v, steps):
    def body(_, v):
        v = m @ v
        return v / jnp.linalg.norm(v)

    v = lax.fori_loop(0, steps, body, v)
    return v @ (m @ v)


def rnn(w, u, xs):
    h = jnp.zeros(w.shape[0])
    for x in xs:
        h = jnp.tanh(w @ h + u @ x)
        if jnp.max(jnp.abs(h)) > 0.99:
            h = h * 0.5
    return h


def rnn_hand(w, u, xs):
    def step(h, x):
        h = jnp.tanh(w @ h + u @ x)
        h = lax.cond(jnp.max(jnp.abs(h)) > 0.99, lambda: h * 0.5, lambda: h)
        return h, None

    return lax.scan(step, jnp.zeros(w.shape[0]), xs)[0]


def _cases():
    rng = np.random.default_rng(0)
    m = rng.normal(size=(512, 512)).astype(np.float32)
    m = jnp.asarray(m + m.T)
    v = jnp.ones(512, jnp.float32)
    w = jnp.asarray(rng.normal(size=(64, 64)) * 0.2, jnp.float32)
    u = jnp.asarray(rng.normal(size=(64, 32)) * 0.2, jnp.float32)
    xs = jnp.asarray(rng.normal(size=(100, 32)), jnp.float32)
    return [
        ("collatz (while, if_exp)", collatz, collatz_hand, (jnp.int32(77031),)),
        ("fizzbuzz count (for range(n), elif)", fizzbuzz, fizzbuzz_hand, (jnp.int32(10_000),)),
        ("sum until (for over array, break)", sum_until, sum_until_hand,
         (jnp.asarray(rng.random(10_000), jnp.float32), jnp.float32(2_500.0))),
        ("power iteration 512x512 (for range(steps))", power_iteration_staged, power_iteration_hand,
         (m, v, jnp.int32(20))),
        ("rnn 100 steps (for over array, if)", rnn, rnn_hand, (w, u, xs)),
    ]


def _time(fn, args, number):
    t = time.perf_counter()
    for _ in range(number):
        r = fn(*args)
    jax.block_until_ready(r)
    return (time.perf_counter() - t) / number


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--number", type=int, default=50)
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    rows = []
    for name, conv, hand, args in _cases():
        t0 = time.perf_counter()
        fc = agj.jit(conv)
        rc = jax.block_until_ready(fc(*args))
        compile_conv = time.perf_counter() - t0
        t0 = time.perf_counter()
        fh = jax.jit(hand)
        rh = jax.block_until_ready(fh(*args))
        compile_hand = time.perf_counter() - t0
        for x, y in zip(jax.tree_util.tree_leaves(rc), jax.tree_util.tree_leaves(rh)):
            np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-4, err_msg=name)
        best_c = best_h = float("inf")
        for i in range(a.repeat):
            order = [(fc, "c"), (fh, "h")] if i % 2 == 0 else [(fh, "h"), (fc, "c")]
            for f, k in order:
                t = _time(f, args, a.number)
                if k == "c":
                    best_c = min(best_c, t)
                else:
                    best_h = min(best_h, t)
        rows.append({"program": name, "converted_us": best_c * 1e6, "hand_us": best_h * 1e6,
                     "ratio": best_c / best_h, "compile_converted_s": compile_conv,
                     "compile_hand_s": compile_hand})
    if a.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'program':45} {'converted':>12} {'hand lax':>12} {'ratio':>7} {'compile conv/hand (s)':>22}")
    for r in rows:
        print(f"{r['program']:45} {r['converted_us']:10.1f}us {r['hand_us']:10.1f}us {r['ratio']:7.3f} "
              f"{r['compile_converted_s']:10.3f}/{r['compile_hand_s']:.3f}")


if __name__ == "__main__":
    main()

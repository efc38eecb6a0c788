"""Traced functions vs the same computation written by hand in numpy.

Prints, per program, the median time of one call of the traced function and
of the hand-written numpy version, their ratio, the geometric mean of the
ratios, and the time to trace a seed-sized function.

    python benchmarks/bench_runtime.py
"""
from __future__ import annotations

import statistics
import time

import numpy as np

import autograph_cli.tf as tf


def _median(fn, repeat=200, number=5):
    times = []
    fn()
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


# 1. power(x, 100): the seeds' matmul loop (unrolled Python loop) -------------
def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result


def power_np(x, y):
    result = np.eye(10, dtype=np.int32)
    for _ in range(y):
        result = x @ result
    return result


# 2. collatz: a staged while loop on a scalar ----------------------------------
def collatz(x):
    count = tf.constant(0)
    while x != 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        count += 1
    return count


_0, _1, _2, _3 = np.int32(0), np.int32(1), np.int32(2), np.int32(3)


def collatz_np(x):
    # typed constants: with Python int literals numpy 2 is ~2x slower here,
    # which would flatter the traced version
    count = _0
    while x != _1:
        if x % _2 == _0:
            x = x // _2
        else:
            x = _3 * x + _1
        count += _1
    return count


# 3. TensorArray accumulation over tf.range -------------------------------------
def squares(n):
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32) * 2.0)
    return ta.stack()


def squares_np(n):
    out = []
    for i in np.arange(n, dtype=np.int32):
        out.append(i.astype(np.float32) * np.float32(2.0))
    return np.stack(out)


# 4. tanh while loop on a vector ---------------------------------------------------
def tanh_loop(x):
    while tf.reduce_sum(x) > 1:
        x = tf.tanh(x)
    return x


def tanh_loop_np(x):
    while x.sum() > 1:
        x = np.tanh(x)
    return x


# 5. small RNN over tf.range ---------------------------------------------------------
def rnn(inputs, w, u, state):
    n = inputs.shape[0]
    states = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        state = tf.tanh(tf.matmul(inputs[i], w) + tf.matmul(state, u))
        states = states.write(i, state)
    return states.stack()


def rnn_np(inputs, w, u, state):
    out = []
    for i in range(inputs.shape[0]):
        state = np.tanh(inputs[i] @ w + state @ u)
        out.append(state)
    return np.stack(out)


def main():
    rng = np.random.default_rng(0)
    xi = rng.integers(-1, 2, size=(10, 10)).astype(np.int32)
    vec = (rng.random(50) * 0.5 + 0.5).astype(np.float32)
    inputs = rng.random((20, 4, 8)).astype(np.float32)
    w = (rng.random((8, 16)) * 0.1).astype(np.float32)
    u = (rng.random((16, 16)) * 0.1).astype(np.float32)
    s0 = np.zeros((4, 16), np.float32)

    programs = [
        ("power(x, 100) matmul loop", tf.function(power), (tf.constant(xi), 100), power_np, (xi, 100)),
        ("collatz while loop (scalar)", tf.function(collatz), (tf.constant(27),), collatz_np, (np.int32(27),)),
        ("TensorArray over tf.range(100)", tf.function(squares), (tf.constant(100),), squares_np, (100,)),
        ("tanh while loop (vector of 50)", tf.function(tanh_loop), (tf.constant(vec),), tanh_loop_np, (vec,)),
        ("RNN over tf.range(20)", tf.function(rnn),
         (tf.constant(inputs), tf.constant(w), tf.constant(u), tf.constant(s0)), rnn_np, (inputs, w, u, s0)),
    ]
    ratios = []
    eager_ratios = []
    print(f"{'program':34} {'traced':>11} {'numpy':>11} {'ratio':>7} {'eager ops':>11} {'eager/traced':>13}")
    for name, fn, args, ref, ref_args in programs:
        got = fn(*args).numpy()
        want = ref(*ref_args)
        assert np.allclose(got, want), name
        t = _median(lambda: fn(*args))
        r = _median(lambda: ref(*ref_args))
        e = _median(lambda: fn.python_function(*args), repeat=20, number=1)
        ratios.append(t / r)
        eager_ratios.append(e / t)
        print(f"{name:34} {t * 1e6:9.1f}us {r * 1e6:9.1f}us {t / r:7.2f} {e * 1e6:9.1f}us {e / t:13.1f}")
    geo = float(np.exp(np.mean(np.log(ratios))))
    print(f"geometric mean ratio traced/numpy: {geo:.2f}")
    print(f"geometric mean speed-up of tracing over eager op-by-op execution: "
          f"{float(np.exp(np.mean(np.log(eager_ratios)))):.1f}x")

    # trace time of a seed-sized function (dynamic_rnn from the seeds)
    def rnn_step(inp, state):
        return inp + state

    def dynamic_rnn(rnn_step, input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in tf.range(max_seq_len):
            state = rnn_step(input_data[i], state)
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])

    data = tf.random.uniform([2, 3, 4])
    init = tf.zeros([2, 4])
    t0 = time.perf_counter()
    tf.function(dynamic_rnn).get_concrete_function(rnn_step, data, init)
    first = time.perf_counter() - t0
    times = []
    for _ in range(50):
        f = tf.function(dynamic_rnn)
        t0 = time.perf_counter()
        f.get_concrete_function(rnn_step, data, init)
        times.append(time.perf_counter() - t0)
    print(f"trace seed-sized function (dynamic_rnn): first {first * 1e3:.2f} ms (includes source conversion), "
          f"median {statistics.median(times) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()

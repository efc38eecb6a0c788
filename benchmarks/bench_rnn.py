"""A Keras LSTM's gradient step through the staged time loop vs the same
math written by hand in numpy (forward over time, backpropagation through
time), and vs the same layer with unroll=True (the steps traced one by one).

The model: LSTM(64) over (batch 64, 20 steps, 16 features), loss
0.5 * sum(h_T ** 2) / batch, gradients of kernel, recurrent_kernel and bias.
The traced step is a tf.function with an input signature whose time
dimension is None (the staged while loop; one trace for every length).
Before timing, the traced gradients are checked equal to numpy's. Prints the
per-call medians (CPU ms) and the ratios to numpy, and the time of one fit epoch
of LSTM(32) -> Dense(1) (256 sequences, batch 64) traced and eagerly.

    python benchmarks/bench_rnn.py             # --repeat 30
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import autograph_cli.tf as tf

B, T, F, U = 64, 20, 16, 64


def _sig(v):
    return 1.0 / (1.0 + np.exp(-v))


def numpy_step(x, k, rk, b):
    """Forward over time and BPTT by hand: (loss, [dK, dR, db])."""
    h = np.zeros((B, U), np.float32)
    c = np.zeros((B, U), np.float32)
    cache = []
    for t in range(T):
        z = x[:, t] @ k + h @ rk + b
        i, f, g, o = _sig(z[:, :U]), _sig(z[:, U:2 * U]), np.tanh(z[:, 2 * U:3 * U]), _sig(z[:, 3 * U:])
        c_new = f * c + i * g
        tc = np.tanh(c_new)
        cache.append((h, c, i, f, g, o, tc))
        h, c = o * tc, c_new
    loss = 0.5 * float((h * h).sum()) / B
    dk, drk, db = np.zeros_like(k), np.zeros_like(rk), np.zeros_like(b)
    dh = h / B
    dc = np.zeros_like(c)
    for t in range(T - 1, -1, -1):
        h_prev, c_prev, i, f, g, o, tc = cache[t]
        do = dh * tc
        dc = dc + dh * o * (1 - tc * tc)
        dz = np.concatenate([dc * g * i * (1 - i), dc * c_prev * f * (1 - f), dc * i * (1 - g * g),
                             do * o * (1 - o)], axis=1)
        dk += x[:, t].T @ dz
        drk += h_prev.T @ dz
        db += dz.sum(0)
        dh = dz @ rk.T
        dc = dc * f
    return loss, [dk, drk, db]


def traced_step(layer):
    @tf.function(input_signature=[tf.TensorSpec([None, None, F], tf.float32)])
    def step(x):
        with tf.GradientTape() as tape:
            h = layer(x)
            loss = 0.5 * tf.reduce_sum(h * h) / tf.cast(tf.shape(x)[0], tf.float32)
        return loss, tape.gradient(loss, layer.trainable_weights)
    return step


def _median_ms(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.process_time()  # CPU time: the machine may be shared
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times) * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((B, T, F)).astype(np.float32)
    staged_layer = tf.keras.layers.LSTM(U)
    staged_layer(x[:1])
    unrolled_layer = tf.keras.layers.LSTM(U, unroll=True)
    unrolled_layer(x[:1])
    unrolled_layer.set_weights(staged_layer.get_weights())
    k, rk, b = staged_layer.get_weights()
    staged = traced_step(staged_layer)

    @tf.function(input_signature=[tf.TensorSpec([B, T, F], tf.float32)])
    def unrolled(v):
        with tf.GradientTape() as tape:
            h = unrolled_layer(v)
            loss = 0.5 * tf.reduce_sum(h * h) / B
        return loss, tape.gradient(loss, unrolled_layer.trainable_weights)

    want_loss, want = numpy_step(x, k, rk, b)
    for fn in (staged, unrolled):
        loss, grads = fn(x)
        assert np.isclose(float(loss), want_loss, rtol=1e-4), (float(loss), want_loss)
        for g, w in zip(grads, want):
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-3, atol=1e-5)
    rows = [("numpy (by hand)", lambda: numpy_step(x, k, rk, b)), ("staged while loop", lambda: staged(x)),
            ("unroll=True", lambda: unrolled(x))]
    medians = {}
    for _ in range(2):  # warm, then measure interleaved
        for name, fn in rows:
            medians[name] = _median_ms(fn, args.repeat)
    base = medians["numpy (by hand)"]
    print(f"LSTM({U}) gradient step, batch {B}, {T} steps, {F} features (median of {args.repeat})")
    for name, _ in rows:
        print(f"  {name:20s} {medians[name]:8.2f} ms   {medians[name] / base:5.2f}x numpy")

    xs = rng.standard_normal((256, T, 8)).astype(np.float32)
    ys = rng.standard_normal((256, 1)).astype(np.float32)
    for eager in (False, True):
        model = tf.keras.Sequential([tf.keras.Input(shape=(None, 8)), tf.keras.layers.LSTM(32),
                                     tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse", run_eagerly=eager)
        model.fit(xs, ys, batch_size=64, epochs=1, verbose=0)
        ms = _median_ms(lambda m=model: m.fit(xs, ys, batch_size=64, epochs=1, verbose=0), max(3, args.repeat // 10))
        print(f"  fit epoch, LSTM(32), {'eagerly' if eager else 'traced '}  {ms:8.2f} ms")


if __name__ == "__main__":
    main()

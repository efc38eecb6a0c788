"""An MLP train step traced with a GradientTape inside tf.function vs the same
step written by hand in numpy (forward pass, manual backward pass, SGD update).

The model: 64 -> 128 -> 128 -> 10, ReLU, batch 256, sparse softmax
cross-entropy averaged over the batch, plain SGD (`v.assign_sub(lr * g)`) on
six float32 Variables. Prints the per-call medians, their ratio (target
<= 1.5x), the time to trace the train step (target < 50 ms) and of its first
call (trace, compile to Python, one run), both on a fresh tf.function after a
warm-up one so that module imports are not counted, and the time of one
`Model.fit` epoch of the same MLP (Keras subset, SGD, 4096 samples, batch 256)
after a warm-up epoch.

    python benchmarks/bench_training.py            # --repeat 300 --json
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

import autograph_cli.tf as tf

B, D, H, C = 256, 64, 128, 10
LR = 0.05


def _time(fn, number=5):
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


def _init(seed=0):
    rng = np.random.default_rng(seed)

    def glorot(a, b):
        return (rng.uniform(-1, 1, (a, b)) * np.sqrt(6 / (a + b))).astype(np.float32)

    params = [glorot(D, H), np.zeros(H, np.float32), glorot(H, H), np.zeros(H, np.float32), glorot(H, C),
              np.zeros(C, np.float32)]
    x = rng.standard_normal((B, D)).astype(np.float32)
    y = rng.integers(0, C, B).astype(np.int32)
    return params, x, y


# --------------------------------------------------------- the traced step
def make_traced_step(variables):
    w1, b1, w2, b2, w3, b3 = variables

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            h1 = tf.nn.relu(tf.matmul(x, w1) + b1)
            h2 = tf.nn.relu(tf.matmul(h1, w2) + b2)
            logits = tf.matmul(h2, w3) + b3
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        grads = tape.gradient(loss, variables)
        for v, g in zip(variables, grads):
            v.assign_sub(LR * g)
        return loss

    return train_step


# ---------------------------------------------------- the hand-written step
def make_numpy_step(params):
    w1, b1, w2, b2, w3, b3 = params
    lr = np.float32(LR)
    rows = np.arange(B)

    def train_step(x, y):
        z1 = x @ w1 + b1
        h1 = np.maximum(z1, 0)
        z2 = h1 @ w2 + b2
        h2 = np.maximum(z2, 0)
        logits = h2 @ w3 + b3
        s = logits - logits.max(axis=-1, keepdims=True)
        e = np.exp(s)
        tot = e.sum(axis=-1, keepdims=True)
        loss = (np.log(tot[:, 0]) - s[rows, y]).mean()
        dz3 = e / tot
        dz3[rows, y] -= 1
        dz3 *= np.float32(1.0 / B)
        dh2 = dz3 @ w3.T
        dz2 = dh2 * (z2 > 0)
        dh1 = dz2 @ w2.T
        dz1 = dh1 * (z1 > 0)
        np.subtract(w3, lr * (h2.T @ dz3), out=w3)
        np.subtract(b3, lr * dz3.sum(axis=0), out=b3)
        np.subtract(w2, lr * (h1.T @ dz2), out=w2)
        np.subtract(b2, lr * dz2.sum(axis=0), out=b2)
        np.subtract(w1, lr * (x.T @ dz1), out=w1)
        np.subtract(b1, lr * dz1.sum(axis=0), out=b1)
        return loss

    return train_step


def check_same_math():
    """The two steps agree (a few steps, float32 tolerance)."""
    params, x, y = _init(1)
    vs = [tf.Variable(p.copy()) for p in params]
    traced = make_traced_step(vs)
    ref = [p.copy() for p in params]
    hand = make_numpy_step(ref)
    xt, yt = tf.constant(x), tf.constant(y)
    for _ in range(3):
        l1 = float(traced(xt, yt).numpy())
        l2 = float(hand(x, y))
        assert abs(l1 - l2) < 1e-4 * max(1.0, abs(l2)), (l1, l2)
    for v, p in zip(vs, ref):
        np.testing.assert_allclose(v.numpy(), p, rtol=1e-4, atol=1e-5)


def trace_time():
    """(get_concrete_function, first call) of a fresh tf.function, medians:
    the first call traces, compiles the graph to Python and runs it once."""
    params, x, y = _init(2)
    xt, yt = tf.constant(x), tf.constant(y)
    make_traced_step([tf.Variable(p) for p in params])(xt, yt)  # warm-up (imports)
    t_cf, t_first = [], []
    for _ in range(5):
        step = make_traced_step([tf.Variable(p) for p in params])
        t0 = time.perf_counter()
        step.get_concrete_function(xt, yt)
        t_cf.append(time.perf_counter() - t0)
        step = make_traced_step([tf.Variable(p) for p in params])
        t0 = time.perf_counter()
        step(xt, yt)
        t_first.append(time.perf_counter() - t0)
    return statistics.median(t_cf), statistics.median(t_first)


def fit_epoch_time(n=4096):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((n, D)).astype(np.float32)
    y = rng.integers(0, C, n).astype(np.int32)
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.Input(shape=(D,)), tf.keras.layers.Dense(H, activation="relu"),
                                 tf.keras.layers.Dense(H, activation="relu"), tf.keras.layers.Dense(C)])
    model.compile(optimizer=tf.keras.optimizers.SGD(LR),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, epochs=1, batch_size=B, verbose=0)  # warm-up: traces the train step
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        model.fit(x, y, epochs=1, batch_size=B, verbose=0, shuffle=False)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    check_same_math()
    params, x, y = _init(0)
    vs = [tf.Variable(p.copy()) for p in params]
    traced = make_traced_step(vs)
    hand = make_numpy_step([p.copy() for p in params])
    xt, yt = tf.constant(x), tf.constant(y)
    traced(xt, yt)
    hand(x, y)
    # interleaved in pairs (5 calls of each), so that load changes hit both
    # alike; the ratio is the median of the per-pair ratios
    t_tr, t_np = [], []
    for _ in range(args.repeat):
        t_np.append(_time(lambda: hand(x, y)))
        t_tr.append(_time(lambda: traced(xt, yt)))
    med_tr, med_np = statistics.median(t_tr), statistics.median(t_np)
    ratio = statistics.median([a / b for a, b in zip(t_tr, t_np)])
    tt, first = trace_time()
    fit_t, n = fit_epoch_time()
    res = {"traced_ms": med_tr * 1e3, "numpy_ms": med_np * 1e3, "ratio": ratio, "ratio_of_medians": med_tr / med_np, "trace_ms": tt * 1e3, "first_call_ms": first * 1e3,
           "fit_epoch_ms": fit_t * 1e3, "fit_samples": n}
    if args.json:
        print(json.dumps(res, indent=2))
        return
    print(f"MLP {D}->{H}->{H}->{C}, batch {B}, sparse softmax cross-entropy, SGD on 6 Variables")
    print(f"  traced train step (tape inside tf.function): {res['traced_ms']:.3f} ms per call")
    print(f"  hand-written numpy (forward + backward + update): {res['numpy_ms']:.3f} ms per call")
    print(f"  ratio traced/numpy: {ratio:.2f}x median of per-pair ratios, {med_tr / med_np:.2f}x ratio of medians "
          "(target <= 1.5x)")
    print(f"  trace of the train step: {res['trace_ms']:.1f} ms (target < 50 ms); first call (trace + compile + "
          f"one run): {res['first_call_ms']:.1f} ms")
    print(f"  Model.fit epoch ({n} samples, batch {B}, SGD): {res['fit_epoch_ms']:.1f} ms")


if __name__ == "__main__":
    main()

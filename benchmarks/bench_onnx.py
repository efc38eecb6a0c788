"""onnxruntime vs this runtime vs hand-written numpy, per call.

The staged programs of bench_runtime.py (collatz, TensorArray accumulation,
the tanh loop, a small RNN) and one matmul-heavy loop (power iteration on a
256x256 matrix, 100 staged iterations) are traced, exported with
autograph_cli.export.to_onnx and run by onnxruntime (CPU, one intra-op
thread; numpy's BLAS is limited to one thread too). Prints the median time per call of each engine,
the ratios onnxruntime/runtime and onnxruntime/numpy, and the median export
time (lowering + full ONNX check) of each program.

    python benchmarks/bench_onnx.py
"""
from __future__ import annotations

import os
import statistics
import sys
import time

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")  # one thread for every engine

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import onnxruntime as ort  # noqa: E402

import autograph_cli.tf as tf  # noqa: E402
from autograph_cli.export import to_onnx  # noqa: E402
from bench_runtime import (  # noqa: E402
    collatz, collatz_np, rnn, rnn_np, squares, squares_np, tanh_loop, tanh_loop_np,
)


def _median(fn, repeat=100, number=5):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


# matmul-heavy: power iteration on a 256x256 matrix ---------------------------------
def power_iteration(a, v):
    for _ in tf.range(100):
        w = tf.matmul(a, v)
        v = w / tf.sqrt(tf.reduce_sum(w * w))
    return v, tf.reduce_sum(v * tf.matmul(a, v))


def power_iteration_np(a, v):
    for _ in range(100):
        w = a @ v
        v = w / np.sqrt((w * w).sum())
    return v, (v * (a @ v)).sum()


# straight-line: a 3-layer MLP forward pass, no control flow ----------------------
def mlp(x, w1, w2, w3):
    h = tf.nn.relu(tf.matmul(x, w1) + 0.1)
    h = tf.tanh(tf.matmul(h, w2) - 0.2)
    return tf.nn.softmax(tf.matmul(h, w3))


def mlp_np(x, w1, w2, w3):
    h = np.maximum(x @ w1 + np.float32(0.1), 0)
    h = np.tanh(h @ w2 - np.float32(0.2))
    z = h @ w3
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _session(model):
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def main():
    rng = np.random.default_rng(0)
    vec = (rng.random(50) * 0.5 + 0.5).astype(np.float32)
    inputs = rng.random((20, 4, 8)).astype(np.float32)
    w = (rng.random((8, 16)) * 0.1).astype(np.float32)
    u = (rng.random((16, 16)) * 0.1).astype(np.float32)
    s0 = np.zeros((4, 16), np.float32)
    m = rng.standard_normal((256, 256)).astype(np.float32)
    a = (m + m.T) / 2
    v0 = np.ones((256, 1), np.float32)
    xb = rng.standard_normal((64, 256)).astype(np.float32)
    w1, w2, w3 = ((rng.standard_normal((256, 256)) * 0.05).astype(np.float32) for _ in range(3))

    programs = [
        ("collatz while loop (scalar)", collatz, (np.int32(27),), collatz_np, (np.int32(27),)),
        ("TensorArray over tf.range(100)", squares, (np.int32(100),), squares_np, (100,)),
        ("tanh while loop (vector of 50)", tanh_loop, (vec,), tanh_loop_np, (vec,)),
        ("RNN over tf.range(20)", rnn, (inputs, w, u, s0), rnn_np, (inputs, w, u, s0)),
        ("power iteration 256x256 x100", power_iteration, (a, v0), power_iteration_np, (a, v0)),
        ("MLP forward 64x256 (no loop)", mlp, (xb, w1, w2, w3), mlp_np, (xb, w1, w2, w3)),
    ]
    print(f"{'program':32} {'onnxruntime':>12} {'runtime':>10} {'numpy':>10} {'ort/runtime':>12} {'ort/numpy':>10} {'export':>9}")
    r_rt, r_np = [], []
    for name, py, args, ref, ref_args in programs:
        fn = tf.function(py)
        targs = [tf.constant(x) for x in args]
        cf = fn.get_concrete_function(*targs)
        exports = []
        for _ in range(5):
            t0 = time.perf_counter()
            model = to_onnx(cf)
            exports.append(time.perf_counter() - t0)
        sess = _session(model)
        feeds = {i.name: np.asarray(x) for i, x in zip(sess.get_inputs(), args)}
        got = sess.run(None, feeds)
        want = cf(*targs)
        want = [x.numpy() for x in (want if isinstance(want, (tuple, list)) else [want])]
        for g, x in zip(got, want):
            assert np.allclose(g, x, rtol=1e-4, atol=1e-5), name
        t_ort = _median(lambda: sess.run(None, feeds))
        t_rt = _median(lambda: cf(*targs))
        t_np = _median(lambda: ref(*ref_args))
        r_rt.append(t_ort / t_rt)
        r_np.append(t_ort / t_np)
        print(f"{name:32} {t_ort * 1e6:10.1f}us {t_rt * 1e6:8.1f}us {t_np * 1e6:8.1f}us {t_ort / t_rt:12.2f} "
              f"{t_ort / t_np:10.2f} {statistics.median(exports) * 1e3:7.1f}ms")
    geo = lambda rs: float(np.exp(np.mean(np.log(rs))))  # noqa: E731
    print(f"geometric mean: onnxruntime/runtime {geo(r_rt):.2f}, onnxruntime/numpy {geo(r_np):.2f} "
          "(below 1: onnxruntime is faster)")


if __name__ == "__main__":
    main()

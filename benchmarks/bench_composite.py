"""tf.ragged / tf.sparse: a traced function against the same computation in numpy,
and the eager cost the facade's composite dispatch adds to a plain tensor op.

- ragged: per-row sums, means and a padded dense copy of a RaggedTensor of
  N rows (lengths 0..2L) in one tf.function (input_signature with None
  dimensions) against numpy (np.add.reduceat and a fill loop written with
  numpy indexing);
- sparse: sparse_dense_matmul of an N x N SparseTensor (nnz entries) by an
  N x 16 matrix against numpy (np.add.at);
- dispatch: eager tf.add / tf.exp (the facade's wrappers) against the
  runtime's ops they wrap, on 2-element tensors (CPU time per call).

Medians over repeated runs; prints ratios.

    python benchmarks/bench_composite.py [--rows N] [--repeat K]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import autograph_cli.tf as tf
from autograph_cli.runtime import ops


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def cpu_per_call(fn, n=20000, runs=7):
    best = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - t0) / n)
    return best


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=20000)
    p.add_argument("--length", type=int, default=8)
    p.add_argument("--repeat", type=int, default=15)
    a = p.parse_args()
    rng = np.random.default_rng(0)

    lengths = rng.integers(0, 2 * a.length + 1, a.rows)
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    values = rng.standard_normal(splits[-1]).astype(np.float32)
    rt = tf.RaggedTensor.from_row_splits(values, splits)

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def ragged_step(r):
        return tf.reduce_sum(r, axis=1), tf.reduce_mean(r, axis=1), r.to_tensor()

    def ragged_numpy():
        starts = splits[:-1]
        sums = np.add.reduceat(np.append(values, 0), starts)[: len(starts)]
        sums[lengths == 0] = 0
        with np.errstate(invalid="ignore", divide="ignore"):
            means = sums / lengths
        width = lengths.max()
        dense = np.zeros((len(lengths), width), np.float32)
        rows = np.repeat(np.arange(len(lengths)), lengths)
        cols = np.arange(len(values)) - np.repeat(starts, lengths)
        dense[rows, cols] = values
        return sums, means, dense

    got = ragged_step(rt)
    want = ragged_numpy()
    np.testing.assert_allclose(got[0].numpy(), want[0], rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(got[2].numpy(), want[2])
    t_graph = median_time(lambda: ragged_step(rt), a.repeat)
    t_np = median_time(ragged_numpy, a.repeat)
    print(f"ragged ({a.rows} rows, {len(values)} values): tf.function {t_graph * 1e3:.2f} ms, "
          f"numpy {t_np * 1e3:.2f} ms, ratio {t_graph / t_np:.2f}")

    n, nnz = 2000, 20000
    idx = np.unique(rng.integers(0, n, (nnz, 2)), axis=0).astype(np.int64)
    vals = rng.standard_normal(len(idx)).astype(np.float32)
    dense_b = rng.standard_normal((n, 16)).astype(np.float32)
    sp = tf.SparseTensor(idx, vals, [n, n])

    @tf.function(input_signature=[tf.SparseTensorSpec([None, None], tf.float32), tf.TensorSpec([None, 16])])
    def spmm(s, b):
        return tf.sparse.sparse_dense_matmul(s, b)

    def spmm_numpy():
        out = np.zeros((n, 16), np.float32)
        np.add.at(out, idx[:, 0], vals[:, None] * dense_b[idx[:, 1]])
        return out

    np.testing.assert_allclose(spmm(sp, dense_b).numpy(), spmm_numpy(), rtol=1e-3, atol=1e-3)
    t_graph = median_time(lambda: spmm(sp, dense_b), a.repeat)
    t_np = median_time(spmm_numpy, a.repeat)
    print(f"sparse_dense_matmul ({n}x{n}, {len(idx)} entries, x16): tf.function {t_graph * 1e3:.2f} ms, "
          f"numpy {t_np * 1e3:.2f} ms, ratio {t_graph / t_np:.2f}")

    x, y = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    for name, wrapped, raw in (("add", lambda: tf.add(x, y), lambda: ops.add(x, y)),
                               ("exp", lambda: tf.exp(x), lambda: ops.exp(x))):
        tw, tr = cpu_per_call(wrapped), cpu_per_call(raw)
        print(f"eager tf.{name}: {tw * 1e6:.2f} us vs the op itself {tr * 1e6:.2f} us "
              f"(dispatch +{(tw - tr) * 1e6:.2f} us, ratio {tw / tr:.3f})")


if __name__ == "__main__":
    main()

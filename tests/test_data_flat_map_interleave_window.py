"""tf.data's Dataset.flat_map, interleave and window: eagerly, inside
tf.function (datasets built outside and from traced tensors), and in staged
`for` loops, against plain-Python references of TensorFlow's documented
orders (the examples of TensorFlow's docs are among the cases)."""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import autograph_cli.tf as tf

D = tf.data.Dataset


def _py(x):
    if isinstance(x, (tuple, list)) and not all(np.ndim(v) == 0 for v in x):
        return type(x)(_py(v) for v in x)
    if isinstance(x, tuple):
        return tuple(_py(v) for v in x)
    if isinstance(x, dict):
        return {k: _py(v) for k, v in x.items()}
    return np.asarray(x).tolist()


def _ref_windows(items, size, shift=None, stride=1, drop_remainder=False):
    """Windows start every `shift` items while any remain; each takes every
    `stride`-th item of the next (size - 1) * stride + 1."""
    shift = shift or size
    out = []
    for start in range(0, len(items), shift):
        w = items[start:start + (size - 1) * stride + 1:stride]
        if drop_remainder and len(w) < size:
            break
        out.append(w)
    return out


def _ref_interleave(inputs, fn, cycle, block):
    """TensorFlow's interleave order: the cycle's slots in turn, up to
    `block` items from each; an empty slot opens the next input's dataset
    (and takes from it in the same turn); a slot's end is found only when
    taking from it, which ends that turn."""
    pending = list(inputs)
    slots = [None] * cycle
    out = []
    while pending or any(s is not None for s in slots):
        for i in range(cycle):
            if slots[i] is None:
                if not pending:
                    continue
                slots[i] = list(fn(pending.pop(0)))
            for _ in range(block):
                if not slots[i]:
                    slots[i] = None
                    break
                out.append(slots[i].pop(0))
    return out


# ------------------------------------------------------------------ docs
def test_reference_interleave_ends_a_turn_at_a_found_end():
    # slot 0 holds exactly a block: its end is found on its next turn, which
    # then passes to slot 1 (opened with the third input only after that)
    lengths = {0: 2, 1: 1, 2: 3, 3: 1}
    got = _ref_interleave(range(4), lambda i: [i] * lengths[i], 2, 2)
    assert got == [0, 0, 1, 2, 2, 3, 2]
    ds = D.from_tensor_slices([2, 1, 3, 1]).enumerate().interleave(
        lambda i, n: D.from_tensors(i).repeat(n), cycle_length=2, block_length=2)
    assert _py(list(ds.as_numpy_iterator())) == got


def test_tensorflow_docs_examples():
    got = D.range(1, 6).interleave(lambda x: D.from_tensors(x).repeat(6), cycle_length=2, block_length=4)
    assert _py(list(got.as_numpy_iterator())) == [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                                                  3, 3, 4, 4, 5, 5, 5, 5, 5, 5]
    got = D.from_tensor_slices([[1, 2, 3], [4, 5, 6], [7, 8, 9]]).flat_map(D.from_tensor_slices)
    assert _py(list(got.as_numpy_iterator())) == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert [_py(list(w.as_numpy_iterator())) for w in D.range(7).window(3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [_py(list(w.as_numpy_iterator())) for w in D.range(7).window(3, 1, 2, True)] == \
        [[0, 2, 4], [1, 3, 5], [2, 4, 6]]
    assert [_py(list(w.as_numpy_iterator())) for w in D.range(7).window(3, 2, 1, True)] == \
        [[0, 1, 2], [2, 3, 4], [4, 5, 6]]


# ------------------------------------------------------------------ window
@pytest.mark.parametrize("n,size,shift,stride,drop", [
    (n, size, shift, stride, drop)
    for n, size, shift, stride, drop in itertools.product([0, 1, 5, 8], [1, 2, 3], [None, 1, 2, 5], [1, 2, 3],
                                                          [False, True])])
def test_window_matches_reference(n, size, shift, stride, drop):
    got = [_py(list(w.as_numpy_iterator())) for w in D.range(n).window(size, shift, stride, drop)]
    assert got == _ref_windows(list(range(n)), size, shift, stride, drop)


def test_window_of_structures_is_a_structure_of_datasets():
    ds = D.from_tensor_slices({"a": [1, 2, 3, 4, 5], "b": ([1.0, 2.0, 3.0, 4.0, 5.0], [b"p", b"q", b"r", b"s", b"t"])})
    windows = ds.window(2, shift=2)
    assert isinstance(windows.element_spec["a"], tf.data.DatasetSpec)
    got = [(_py(list(w["a"].as_numpy_iterator())), _py(list(w["b"][1].as_numpy_iterator()))) for w in windows]
    assert got == [([1, 2], [b"p", b"q"]), ([3, 4], [b"r", b"s"]), ([5], [b"t"])]
    batched = windows.flat_map(lambda w: D.zip((w["a"].batch(2), w["b"][0].batch(2))))
    assert _py(list(batched.as_numpy_iterator())) == [([1, 2], [1.0, 2.0]), ([3, 4], [3.0, 4.0]), ([5], [5.0])]
    with pytest.raises(TypeError, match="as_numpy_iterator"):
        list(windows.as_numpy_iterator())
    for bad in (dict(size=0), dict(size=2, shift=0), dict(size=2, stride=-1)):
        with pytest.raises(tf.errors.InvalidArgumentError):
            D.range(3).window(**bad)


def test_sliding_windows_batched_as_a_user_writes_them():
    series = np.arange(10, dtype=np.float32) * 0.5
    ds = D.from_tensor_slices(series).window(4, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(4))
    ds = ds.map(lambda w: (w[:-1], w[-1]))
    got = [(x.tolist(), float(y)) for x, y in ds.as_numpy_iterator()]
    want = [(series[i:i + 3].tolist(), float(series[i + 3])) for i in range(7)]
    assert got == want


# ------------------------------------------------------------------ flat_map
def test_flat_map_matches_reference_and_reiterates():
    ds = D.range(5).flat_map(lambda x: D.range(x).map(lambda y: y * 10 + x))
    want = [y * 10 + x for x in range(5) for y in range(x)]
    assert _py(list(ds.as_numpy_iterator())) == want
    assert _py(list(ds.as_numpy_iterator())) == want  # a dataset iterates again from the start
    pairs = D.from_tensor_slices(([1, 2, 3], [3, 0, 2])).flat_map(lambda v, k: D.from_tensors(v).repeat(k))
    assert _py(list(pairs.as_numpy_iterator())) == [1, 1, 1, 3, 3]
    const = D.range(3).flat_map(lambda x: D.from_tensor_slices([7, 8]))  # independent of the element
    assert _py(list(const.as_numpy_iterator())) == [7, 8] * 3


def test_flat_map_function_must_return_a_dataset():
    with pytest.raises(TypeError, match="flat_map must return a Dataset"):
        D.range(3).flat_map(lambda x: x + 1)
    with pytest.raises(TypeError, match="interleave must return a Dataset"):
        D.range(3).interleave(lambda x: [x])


def test_flat_map_autograph_converts_the_function():
    def fn(x):
        if x % 2 == 0:  # a tensor condition: a staged cond choosing between datasets' counts
            n = x
        else:
            n = x * 2
        return D.range(n)

    ds = D.range(1, 5).flat_map(fn)
    want = [y for x in range(1, 5) for y in range(x if x % 2 == 0 else 2 * x)]
    assert _py(list(ds.as_numpy_iterator())) == want


# ------------------------------------------------------------------ interleave
@pytest.mark.parametrize("cycle,block,seed", [(c, b, s) for c in (1, 2, 3, 4, 7) for b in (1, 2, 3, 4) for s in range(3)])
def test_interleave_matches_reference(cycle, block, seed):
    rng = random.Random(seed * 1000 + cycle * 31 + block)
    lengths = [rng.randrange(0, 6) for _ in range(7)]

    def fn(i):
        return [i * 100 + j for j in range(lengths[i])]

    lengths_t = tf.constant(lengths, tf.int64)
    ds = D.range(7).interleave(lambda i: D.range(lengths_t[i]).map(lambda j: i * 100 + j),
                               cycle_length=cycle, block_length=block)
    assert _py(list(ds.as_numpy_iterator())) == _ref_interleave(range(7), fn, cycle, block)


def test_interleave_default_block_and_autotune_cycle_accepted():
    ds = D.range(3).interleave(lambda x: D.from_tensors(x).repeat(2), cycle_length=tf.data.AUTOTUNE,
                               num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
    assert sorted(_py(list(ds.as_numpy_iterator()))) == [0, 0, 1, 1, 2, 2]
    one = D.range(3).interleave(lambda x: D.from_tensors(x).repeat(2), cycle_length=1)
    assert _py(list(one.as_numpy_iterator())) == [0, 0, 1, 1, 2, 2]


# ------------------------------------------------------------ inside tf.function
def test_built_outside_iterated_in_staged_loops():
    inter = D.range(1, 6).interleave(lambda x: D.from_tensors(x).repeat(3), cycle_length=2, block_length=2)
    want = _py(list(inter.as_numpy_iterator()))

    @tf.function
    def collect():
        acc = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for x in inter:
            acc = acc.write(i, x)
            i += 1
        return acc.stack()

    assert _py(collect()) == want

    @tf.function
    def window_sums():
        out = tf.constant(0, tf.int64)
        for w in D.range(7).window(3):  # a window is a dataset inside the loop body
            s = tf.constant(0, tf.int64)
            for x in w:
                s += x
            out = out * 100 + s
        return out

    assert int(window_sums()) == 3 * 10000 + 12 * 100 + 6


def test_built_from_traced_tensors_inside_the_function():
    @tf.function
    def f(x, n):
        ds = D.from_tensor_slices(x).flat_map(lambda r: D.from_tensor_slices(r).take(n))
        total = tf.constant(0)
        for v in ds:
            total = total * 10 + v
        return total

    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    assert int(f(x, tf.constant(2, tf.int64))) == 1245
    assert int(f(x, tf.constant(3, tf.int64))) == 123456

    @tf.function
    def g(x):
        ds = D.from_tensor_slices(x).window(2, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(2))
        ds = ds.map(tf.reduce_sum).interleave(lambda s: D.from_tensors(s).repeat(2), cycle_length=2)
        return ds.reduce(tf.constant(0.0), lambda acc, e: acc * 10 + e)

    # window sums 3, 5, 7 each repeated twice, two at a time: 3 5 3 5 7 7
    assert float(g(tf.constant([1.0, 2.0, 3.0, 4.0]))) == 353577.0

    @tf.function
    def h(n):
        a = D.range(n)
        b = D.range(10, 13)
        z = D.zip((a, b)).concatenate(D.zip((b, a)))  # a traced dataset zipped with a built one
        s = tf.constant(0, tf.int64)
        for p, q in z:
            s = s * 10 + p + q
        return s

    want = 0
    for p, q in list(zip(range(2), range(10, 13))) + list(zip(range(10, 13), range(2))):
        want = want * 10 + p + q
    assert int(h(tf.constant(2, tf.int64))) == want


def test_traced_flat_map_function_is_traced_once_per_transformation():
    traces = []

    def fn(x):
        traces.append(1)
        return D.from_tensors(x).repeat(2)

    @tf.function
    def f(n):
        s = tf.constant(0, tf.int64)
        for v in D.range(n).flat_map(fn):
            s += v
        return s

    assert int(f(tf.constant(4, tf.int64))) == 12
    assert int(f(tf.constant(5, tf.int64))) == 20
    assert len(traces) == 1  # not again for each run of the graph


def test_dataset_functions_use_tensors_of_the_traced_function():
    @tf.function
    def scaled_sum(scale, n):
        # map's function reads `scale`, a tensor of this trace: applied when the graph runs
        ds = D.range(4).map(lambda x: tf.cast(x, tf.float32) * scale).filter(lambda v: v < scale * 3)
        ds = ds.flat_map(lambda v: D.from_tensors(v + scale).repeat(n))
        return ds.reduce(tf.constant(0.0), lambda a, e: a + e)

    def want(scale, n):
        return sum((x * scale + scale) * n for x in range(4) if x * scale < scale * 3)

    assert float(scaled_sum(tf.constant(2.0), tf.constant(2, tf.int64))) == want(2.0, 2)
    assert float(scaled_sum(tf.constant(0.5), tf.constant(3, tf.int64))) == want(0.5, 3)

    @tf.function
    def nested(k):
        total = tf.constant(0, tf.int64)
        for v in D.range(3).flat_map(lambda x: D.range(x + 1).map(lambda y: y * k + x)):
            total = total * 10 + v
        return total

    want_n = 0
    for x in range(3):
        for y in range(x + 1):
            want_n = want_n * 10 + y * 2 + x
    assert int(nested(tf.constant(2, tf.int64))) == want_n


def test_lists_inside_functions_are_dataset_values():
    @tf.function
    def f():
        s = tf.constant(0)
        for v in D.from_tensor_slices([[1, 2], [3, 4]]).flat_map(lambda r: D.from_tensor_slices(r)):
            s = s * 10 + v
        return s

    assert int(f()) == 1234


def test_captured_tensors_as_branch_results_and_loop_initial_values():
    @tf.function
    def f(scale):
        def g(x):
            if x > 2:  # a staged cond whose branches return the captured tensor itself
                y = scale
            else:
                y = -scale
            t = scale  # and a staged loop starting from it
            for _ in tf.range(x):
                t = t + 1
            return y + t * 100
        return D.range(5).map(g).reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    s = 3
    want = sum((s if x > 2 else -s) + (s + x) * 100 for x in range(5))
    assert int(f(tf.constant(s, tf.int64))) == want


def test_errors_of_staged_transformations_keep_their_type():
    @tf.function
    def f(n):
        return D.range(n).flat_map(lambda x: x + 1).reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    with pytest.raises(TypeError, match="flat_map must return a Dataset"):
        f(tf.constant(3, tf.int64))

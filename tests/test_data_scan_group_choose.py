"""tf.data's Dataset.scan, take_while, unique, group_by_window, counter,
choose_from_datasets and sample_from_datasets: eagerly and inside
tf.function (staged loops, datasets built from traced tensors), against
plain-Python references of TensorFlow's documented behaviour."""
from __future__ import annotations

import collections
import itertools

import numpy as np
import pytest

import autograph_cli.tf as tf

D = tf.data.Dataset


def _py(ds):
    out = []
    for x in ds.as_numpy_iterator():
        out.append(tuple(np.asarray(v).tolist() for v in x) if isinstance(x, tuple) else np.asarray(x).tolist())
    return out


# ------------------------------------------------------------------ scan
def test_scan_running_sum_docs_example_and_structured_state():
    got = _py(D.range(10).scan(tf.constant(0, tf.int64), lambda s, i: (s + i, s + i)))
    assert got == list(itertools.accumulate(range(10)))
    fib = D.range(8).scan((tf.constant(0, tf.int64), tf.constant(1, tf.int64)), lambda s, _: ((s[1], s[0] + s[1]), s[0]))
    want, a, b = [], 0, 1
    for _ in range(8):
        want.append(a)
        a, b = b, a + b
    assert _py(fib) == want
    pairs = D.from_tensor_slices(([1.0, 2.0, 3.0], [10, 20, 30])).scan(
        tf.constant(0.5), lambda s, e: (s * e[0], (s, e[1] + 1)))
    assert _py(pairs) == [(0.5, 11), (0.5, 21), (1.0, 31)]


def test_scan_state_that_changes_shape_is_relaxed():
    grown = D.range(5).scan(tf.zeros([0], tf.int64), lambda s, i: (tf.concat([s, [i * i]], 0), tf.reduce_sum(s)))
    want, acc = [], []
    for i in range(5):
        want.append(sum(acc))
        acc.append(i * i)
    assert _py(grown) == want
    with pytest.raises(TypeError, match="initial state"):
        D.range(3).scan(tf.constant(0, tf.int32), lambda s, i: (tf.cast(s, tf.float32), i))


def test_scan_in_a_function_with_a_traced_initial_state():
    @tf.function
    def f(n, s0):
        t = tf.constant(0, tf.int64)
        for v in D.range(n).scan(s0, lambda s, i: (s + i, s * 10)):
            t += v
        return t

    for n, s0 in ((4, 1), (6, -2), (0, 5)):
        s, want = s0, 0
        for i in range(n):
            want += s * 10
            s += i
        assert int(f(tf.constant(n, tf.int64), tf.constant(s0, tf.int64))) == want


# ------------------------------------------------------ take_while, unique
def test_take_while_and_unique():
    assert _py(D.range(10).take_while(lambda x: x < 4)) == [0, 1, 2, 3]
    assert _py(D.from_tensor_slices([3, 1, 4, 1, 5]).take_while(lambda x: x != 1)) == [3]
    vals = [1, 3, 1, 2, 3, 5, 2, 8]
    assert _py(D.from_tensor_slices(vals).unique()) == list(dict.fromkeys(vals))
    assert _py(D.from_tensor_slices([b"a", b"b", b"a"]).unique()) == [b"a", b"b"]
    with pytest.raises(TypeError, match="scalar"):
        D.from_tensor_slices([1.0, 2.0]).unique()
    with pytest.raises(TypeError, match="take_while predicate"):
        D.range(3).take_while(lambda x: x)

    @tf.function
    def f(limit):
        s = tf.constant(0, tf.int64)
        for v in D.from_tensor_slices(tf.constant([5, 1, 5, 2, 9, 2], tf.int64)).unique().take_while(
                lambda x: x < limit):
            s = s * 10 + v
        return s

    assert int(f(tf.constant(9, tf.int64))) == 512  # unique 5 1 2 9: stops at 9
    assert int(f(tf.constant(3, tf.int64))) == 0


# ------------------------------------------------------------ group_by_window
def _ref_group_by_window(items, key, size_of, reduce):
    groups = collections.OrderedDict()
    out = []
    for x in items:
        k = key(x)
        groups.setdefault(k, []).append(x)
        if len(groups[k]) >= size_of(k):
            out.extend(reduce(k, groups.pop(k)))
    for k in sorted(groups):  # the partial windows at the end, by ascending key
        out.extend(reduce(k, groups[k]))
    return out


@pytest.mark.parametrize("mod,size", [(3, 2), (2, 5), (4, 1), (5, 3)])
def test_group_by_window_matches_reference(mod, size):
    got = _py(D.range(17).group_by_window(lambda x: x % mod, lambda k, w: w.batch(size).map(lambda b: (k, b)),
                                          window_size=size))
    want = _ref_group_by_window(range(17), lambda x: x % mod, lambda k: size, lambda k, rows: [(k, rows)])
    assert got == want


def test_group_by_window_with_window_size_func_and_reduce_to_sums():
    ds = D.range(20).group_by_window(
        lambda x: x % 3, lambda k, w: D.from_tensors(w.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)),
        window_size_func=lambda k: k + 2)
    want = _ref_group_by_window(range(20), lambda x: x % 3, lambda k: k + 2, lambda k, rows: [sum(rows)])
    assert _py(ds) == want
    with pytest.raises(ValueError, match="either window_size or window_size_func"):
        D.range(3).group_by_window(lambda x: x, lambda k, w: w)

    @tf.function
    def f(k):
        t = tf.constant(0, tf.int64)
        for v in D.range(10).group_by_window(lambda x: x % k, lambda key, w: w.batch(5).map(tf.reduce_sum),
                                             window_size=5):
            t = t * 100 + v
        return t

    assert int(f(tf.constant(2, tf.int64))) == 20 * 100 + 25


# ------------------------------------------------ counter, choose, sample
def test_counter_and_choose_from_datasets():
    assert _py(D.counter(5, 2).take(4)) == [5, 7, 9, 11]
    assert _py(D.zip((D.range(3), D.counter(10, -1, tf.int32)))) == [(0, 10), (1, 9), (2, 8)]
    a, b = D.range(3), D.range(10, 14)
    choice = [0, 1, 1, 0, 0, 0, 1, 1]
    stop = D.choose_from_datasets([a, b], D.from_tensor_slices(tf.constant(choice, tf.int64)))
    assert _py(stop) == [0, 10, 11, 1, 2]  # the fourth 0 finds `a` empty: the end
    go_on = D.choose_from_datasets([a, b], D.from_tensor_slices(tf.constant(choice, tf.int64)),
                                   stop_on_empty_dataset=False)
    assert _py(go_on) == [0, 10, 11, 1, 2, 12, 13]
    with pytest.raises(TypeError, match="int64"):
        D.choose_from_datasets([a, b], D.from_tensor_slices([0, 1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        list(D.choose_from_datasets([a, b], D.from_tensor_slices(tf.constant([2], tf.int64))))


def test_sample_from_datasets_takes_every_element_with_the_weights():
    a, b = D.range(0, 300), D.range(1000, 1100)
    got = _py(D.sample_from_datasets([a, b], weights=[0.75, 0.25], seed=7))
    assert sorted(got) == list(range(300)) + list(range(1000, 1100))  # all of both, each in its order
    assert [x for x in got if x < 1000] == list(range(300))
    first = got[:200]
    share = sum(x >= 1000 for x in first) / 200
    assert 0.15 < share < 0.35  # drawn with the weights while both last
    stopped = _py(D.sample_from_datasets([D.range(3), D.range(10, 200)], seed=1, stop_on_empty_dataset=True))
    assert len(stopped) < 193 and [x for x in stopped if x < 10] == [0, 1, 2]

    @tf.function
    def total():
        s = tf.constant(0, tf.int64)
        for v in D.sample_from_datasets([D.range(5), D.range(100, 103)], seed=3):
            s += v
        return s

    assert int(total()) == sum(range(5)) + sum(range(100, 103))


# --------------------------------------------------- get_single_element
def test_get_single_element_eager_and_traced():
    assert int(D.range(1).map(lambda x: x + 5).get_single_element()) == 5
    for ds, msg in ((D.range(2), "more than one element"), (D.range(0), "empty")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
            ds.get_single_element()

    @tf.function
    def f(n):
        pair = D.range(n, n + 1).map(lambda x: (x, x * 2)).get_single_element()  # built from a traced n
        return pair, D.from_tensors([1, 2]).get_single_element()

    (a, b), c = f(tf.constant(3, tf.int64))
    assert (int(a), int(b), c.numpy().tolist()) == (3, 6, [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="empty"):
        tf.function(lambda n: D.range(n).get_single_element())(tf.constant(0, tf.int64))


# ------------------------------------------------ bucket_by_sequence_length
def _ref_buckets(lengths, bounds, sizes, pad_to=None):
    groups, out = {}, []

    def emit(k, rows):
        width = max(rows) if pad_to is None else bounds[k] - 1
        out.append([[1] * n + [0] * (width - n) for n in rows])

    for n in lengths:
        k = sum(b <= n for b in bounds)
        groups.setdefault(k, []).append(n)
        if len(groups[k]) == sizes[k]:
            emit(k, groups.pop(k))
    for k in sorted(groups):
        emit(k, groups[k])
    return out


@pytest.mark.parametrize("bounds,sizes,pad", [([3, 6], [2, 2, 2], False), ([2, 4, 8], [3, 1, 2, 4], False),
                                              ([3, 9], [2, 3, 2], True)])
def test_bucket_by_sequence_length_matches_reference(bounds, sizes, pad):
    lengths = [3, 1, 5, 2, 7, 4, 1, 6, 8, 2, 5, 5, 3]
    ds = D.from_generator(lambda: iter([[1] * n for n in lengths]), output_signature=tf.TensorSpec([None], tf.int32))
    got = [b.numpy().tolist() for b in ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], bounds, sizes,
                                                                    pad_to_bucket_boundary=pad)]
    assert got == _ref_buckets(lengths, bounds, sizes, pad_to=pad or None)
    with pytest.raises(ValueError, match="bucket_batch_sizes"):
        ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], bounds, sizes[:-1])


# ------------------------------------------------------- rejection_resample
@pytest.mark.parametrize("target,initial", [([0.5, 0.5], [0.9, 0.1]), ([0.2, 0.8], [0.9, 0.1]), ([0.5, 0.5], None),
                                            ([0.3, 0.3, 0.4], [0.6, 0.3, 0.1])])
def test_rejection_resample_reaches_the_target_distribution(target, initial):
    rng = np.random.default_rng(5)
    k = len(target)
    p = [0.9, 0.1] if k == 2 else [0.6, 0.3, 0.1]
    labels = rng.choice(k, size=30000, p=p).astype(np.int64)
    ds = D.from_tensor_slices({"x": np.arange(30000), "label": labels})
    out = list(ds.rejection_resample(lambda e: e["label"], target, initial_dist=initial, seed=11)
               .take(4000).as_numpy_iterator())
    classes = np.array([int(c) for c, _ in out])
    assert all(int(c) == int(e["label"]) and labels[int(e["x"])] == int(c) for c, e in out)  # (class, element) pairs
    settled = classes[1000:]  # (without initial_dist the estimate needs a start)
    np.testing.assert_allclose(np.bincount(settled, minlength=k) / len(settled), target, atol=0.04)


def test_rejection_resample_checks_its_inputs():
    ds = D.range(10)
    with pytest.raises(TypeError, match="class_func"):
        ds.rejection_resample(lambda x: tf.cast(x, tf.float32), [0.5, 0.5])
    with pytest.raises(ValueError, match="same number of classes"):
        ds.rejection_resample(lambda x: x % 2, [0.5, 0.5], initial_dist=[1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="outside"):
        list(ds.rejection_resample(lambda x: x, [0.5, 0.5], initial_dist=[0.5, 0.5], seed=1))


def test_experimental_transformations_equal_the_methods():
    exp = tf.data.experimental
    ds = D.range(12)
    pairs = [
        (ds.apply(exp.scan(tf.constant(0, tf.int64), lambda s, x: (s + 1, x * s))),
         ds.scan(tf.constant(0, tf.int64), lambda s, x: (s + 1, x * s))),
        (ds.apply(exp.group_by_window(lambda x: x % 3, lambda k, w: w.batch(2), window_size=2)),
         ds.group_by_window(lambda x: x % 3, lambda k, w: w.batch(2), window_size=2)),
        (ds.apply(exp.take_while(lambda x: x < 5)), ds.take_while(lambda x: x < 5)),
        (D.from_tensor_slices([3, 1, 3]).apply(exp.unique()), D.from_tensor_slices([3, 1, 3]).unique()),
        (exp.Counter(4, 3).take(3), D.counter(4, 3).take(3)),
    ]
    for a, b in pairs:
        assert [np.asarray(x).tolist() for x in a.as_numpy_iterator()] == \
            [np.asarray(x).tolist() for x in b.as_numpy_iterator()]
    assert int(exp.get_single_element(D.from_tensors(tf.constant(7)))) == 7

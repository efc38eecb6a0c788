"""tf.data cardinality as TensorFlow reports it (known without iterating;
INFINITE_CARDINALITY / UNKNOWN_CARDINALITY), len() and bool() of datasets,
and shuffle's buffer (an infinite input can be shuffled; a small buffer
shuffles locally), checked against counting the elements and against the
buffer's definition."""
from __future__ import annotations

import numpy as np
import pytest

import autograph_cli.tf as tf

D = tf.data.Dataset
INF, UNK = tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY


FINITE = [
    lambda: D.range(10), lambda: D.range(10).batch(3), lambda: D.range(10).batch(3, drop_remainder=True),
    lambda: D.range(10).padded_batch(4), lambda: D.range(10).repeat(3), lambda: D.range(0).repeat(),
    lambda: D.range(10).take(4), lambda: D.range(3).take(10), lambda: D.range(10).take(-1),
    lambda: D.range(10).skip(4), lambda: D.range(10).skip(40), lambda: D.range(10).skip(-1),
    lambda: D.range(10).repeat().take(7), lambda: D.zip((D.range(3), D.counter())), lambda: D.zip((D.range(5), D.range(8))),
    lambda: D.range(7).window(3), lambda: D.range(7).window(3, 1, 2, True), lambda: D.range(7).window(2, 5),
    lambda: D.range(3).concatenate(D.range(4)), lambda: D.range(10).shuffle(3).map(lambda x: x * 2).enumerate(),
    lambda: D.from_tensor_slices(np.zeros((6, 2))).scan(0.0, lambda s, x: (s, x)), lambda: D.from_tensors([1, 2]),
    lambda: D.range(9).filter(lambda x: x > 3).repeat(0),
]


@pytest.mark.parametrize("make", FINITE)
def test_known_cardinality_is_the_number_of_elements(make):
    ds = make()
    n = int(ds.cardinality())
    assert n == sum(1 for _ in ds) == len(ds)
    assert tf.data.experimental.cardinality(ds).dtype == tf.int64


@pytest.mark.parametrize("make,want", [
    (lambda: D.range(3).repeat(), INF), (lambda: D.counter(), INF), (lambda: D.range(3).repeat().batch(2), INF),
    (lambda: D.range(3).repeat().skip(5), INF), (lambda: D.range(3).concatenate(D.counter()), INF),
    (lambda: D.range(9).filter(lambda x: x > 3), UNK), (lambda: D.range(4).flat_map(D.range), UNK),
    (lambda: D.from_generator(lambda: iter([1, 2]), tf.int32), UNK), (lambda: D.range(4).batch(2).unbatch(), UNK),
    (lambda: D.zip((D.range(3).filter(lambda x: x > 0), D.range(5))), UNK),
    (lambda: D.range(9).filter(lambda x: x > 3).repeat(), INF),
])
def test_infinite_and_unknown_cardinality(make, want):
    ds = make()
    assert int(ds.cardinality()) == want
    with pytest.raises(TypeError, match="infinite" if want == INF else "unknown"):
        len(ds)
    assert bool(ds)  # truthiness does not ask for the length
    if want == INF:
        assert len(list(ds.take(11).as_numpy_iterator())) == 11


def test_shuffle_an_infinite_dataset_and_buffer_locality():
    got = [int(v) for v in D.range(5).repeat().shuffle(4, seed=1).take(50)]
    # an infinite input (repeat()) is shuffled through the buffer, not read whole
    assert set(got) <= set(range(5)) and len(got) == 50
    counts = np.bincount(got, minlength=5)
    assert counts.min() >= 8 and counts.max() <= 12

    for buf in (1, 2, 3, 7):
        out = [int(v) for v in D.range(40).shuffle(buf, seed=buf)]
        assert sorted(out) == list(range(40))
        # the k-th output is one of the first k + buf inputs
        assert all(v < k + buf for k, v in enumerate(out))
        if buf == 1:
            assert out == list(range(40))  # a buffer of one keeps the order


def test_shuffle_reshuffles_each_iteration_unless_told_not_to():
    ds = D.range(30).shuffle(30, seed=4)
    a, b = list(ds.as_numpy_iterator()), list(ds.as_numpy_iterator())
    assert sorted(a) == sorted(b) == list(range(30)) and a != b
    fixed = D.range(30).shuffle(30, seed=4, reshuffle_each_iteration=False)
    assert list(fixed.as_numpy_iterator()) == list(fixed.as_numpy_iterator())
    with pytest.raises(tf.errors.InvalidArgumentError, match="buffer_size"):
        D.range(3).shuffle(0)

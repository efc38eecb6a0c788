"""The facade's array/math/linalg/random/functional ops, differential against
numpy on real inputs, eagerly and traced (tf.function), including traced with
unknown shapes (input_signature with None dimensions)."""
from __future__ import annotations

import numpy as np
import pytest

import autograph_cli.tf as tf

RNG = np.random.default_rng(0)


def _np(x):
    if isinstance(x, (list, tuple)):
        return [_np(v) for v in x]
    return x.numpy() if hasattr(x, "numpy") else x


def _spec(a, unknown):
    a = np.asarray(a)
    shape = [None] * a.ndim if unknown else list(a.shape)
    return tf.TensorSpec(shape, tf.as_dtype(a.dtype))


def run_three(fn, *args):
    """fn eagerly, traced with static shapes and traced with unknown dims."""
    ts = [tf.constant(a) for a in args]
    out = [_np(fn(*ts))]
    for unknown in (False, True):
        f = tf.function(fn, input_signature=[_spec(a, unknown) for a in args], autograph=False)
        out.append(_np(f(*ts)))
    return out


def check(fn, ref, *args, rtol=1e-5):
    want = ref(*[np.asarray(a) for a in args])
    for got in run_three(fn, *args):
        if isinstance(want, (list, tuple)):
            assert len(got) == len(want)
            for g, w in zip(got, want):
                np.testing.assert_allclose(g, w, rtol=rtol)
                assert np.asarray(g).dtype == np.asarray(w).dtype
        else:
            np.testing.assert_allclose(got, want, rtol=rtol)
            assert np.asarray(got).dtype == np.asarray(want).dtype, (np.asarray(got).dtype, np.asarray(want).dtype)


X = RNG.normal(size=(3, 4)).astype(np.float32)
V = np.array([3, 1, 2, 3, 1, 5], np.int32)


# ------------------------------------------------------------ dynamic shapes
SCALAR = [tf.TensorSpec([], tf.int32)]


@pytest.mark.parametrize(
    "name,fn,ref,static",
    [
        ("eye", lambda n: tf.eye(n), lambda n: np.eye(n, dtype=np.float32), [None, None]),
        ("eye_cols", lambda n: tf.eye(n, 3), lambda n: np.eye(n, 3, dtype=np.float32), [None, 3]),
        ("one_hot", lambda n: tf.one_hot(tf.constant([0, 2, 1]), n),
         lambda n: np.eye(n, dtype=np.float32)[[0, 2, 1]], [3, None]),
        ("tile", lambda n: tf.tile(tf.ones([2, 2]), [1, n]), lambda n: np.ones([2, 2 * n], np.float32), [2, None]),
        ("zeros", lambda n: tf.zeros([n]), lambda n: np.zeros([n], np.float32), [None]),
        ("ones", lambda n: tf.ones([n, 3], tf.int32), lambda n: np.ones([n, 3], np.int32), [None, 3]),
        ("fill", lambda n: tf.fill([2, n], 7), lambda n: np.full([2, n], 7, np.int32), [2, None]),
        ("reshape", lambda n: tf.reshape(tf.range(12), [-1, n]), lambda n: np.arange(12, dtype=np.int32).reshape(-1, n),
         [None, None]),
        ("range", lambda n: tf.range(n), lambda n: np.arange(n, dtype=np.int32), [None]),
        ("reduce_sum", lambda n: tf.reduce_sum(tf.ones([2, 3]), axis=n - 2), lambda n: np.full([2], 3, np.float32),
         [None]),
        ("reduce_max_keep", lambda n: tf.reduce_max(tf.reshape(tf.range(6), [2, 3]), axis=n - 3, keepdims=True),
         lambda n: np.array([[3, 4, 5]], np.int32), [None, None]),
        ("uniform_shape", lambda n: tf.shape(tf.random.uniform([n, 3])), lambda n: np.array([n, 3], np.int32), [2]),
        ("normal_shape", lambda n: tf.shape(tf.random.normal([n])), lambda n: np.array([n], np.int32), [1]),
        ("zeros_shape_of", lambda n: tf.zeros(tf.shape(tf.range(n))), lambda n: np.zeros([n], np.float32), [None]),
        ("scatter_nd", lambda n: tf.scatter_nd([[1]], [5], [n]), lambda n: np.array([0, 5, 0][:n], np.int32), [None]),
    ],
)
def test_size_and_shape_arguments_may_be_traced_tensors(name, fn, ref, static):
    n = 3 if name != "reduce_max_keep" else 3
    want = ref(n)
    np.testing.assert_array_equal(fn(tf.constant(n)).numpy(), want)
    f = tf.function(fn, input_signature=SCALAR, autograph=False)
    got = f(tf.constant(n)).numpy()
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype
    out = f.get_concrete_function().structured_outputs
    assert out.shape.as_list() == static


def test_constant_folded_sizes_give_static_shapes():
    @tf.function(autograph=False)
    def f():
        n = tf.constant(2) + 1
        return tf.eye(n), tf.zeros([n, 2]), tf.one_hot([0], n), tf.tile([[1]], [n, 1])

    outs = f.get_concrete_function().structured_outputs
    assert [o.shape.as_list() for o in outs] == [[3, 3], [3, 2], [1, 3], [3, 1]]


def test_shapes_from_tf_shape_keep_the_known_dimensions():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)], autograph=False)
    def f(x):
        return tf.zeros(tf.shape(x)), tf.reshape(x, [tf.shape(x)[0], 3, 1]), tf.ones([tf.shape(x)[1], 2])

    outs = f.get_concrete_function().structured_outputs
    assert [o.shape.as_list() for o in outs] == [[None, 3], [None, 3, 1], [3, 2]]
    res = f(tf.ones([2, 3]))
    assert [r.shape.as_list() for r in res] == [[2, 3], [2, 3, 1], [3, 2]]


def test_static_only_arguments_name_the_argument_and_line():
    @tf.function(input_signature=SCALAR, autograph=False)
    def f(n):
        return tf.concat([tf.ones([2]), tf.ones([2])], axis=n)

    with pytest.raises(ValueError, match=r"tf.concat: argument `axis` must be known while tracing.*test_api_ops.py:\d+"):
        f(tf.constant(0))

    @tf.function(input_signature=SCALAR, autograph=False)
    def g(n):
        return tf.transpose(tf.ones([2, 3]), [n, 0])

    with pytest.raises(ValueError, match="tf.transpose: argument `perm`"):
        g(tf.constant(1))


def test_shape_vs_dot_shape():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)], autograph=False)
    def f(x):
        assert x.shape.as_list() == [None]
        return tf.shape(x)

    assert f(tf.constant([1, 2, 3])).numpy().tolist() == [3]


# ----------------------------------------------------------------- packing
def test_python_values_next_to_tensors_take_their_dtype_in_concat_and_stack():
    a = tf.constant([1, 2], tf.int64)
    assert tf.concat([a, [3]], 0).dtype is tf.int64
    assert tf.stack([tf.constant(1, tf.int64), 2]).numpy().tolist() == [1, 2]
    assert tf.stack([1, tf.constant(2.5, tf.float64)]).dtype is tf.float64

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)], autograph=False)
    def f(x):
        return tf.concat([x, [7]], axis=0)

    assert f(a).numpy().tolist() == [1, 2, 7]


# ------------------------------------------------------------------- pad
@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC", "reflect"])
def test_pad(mode):
    p = [[1, 2], [2, 1]]
    check(lambda x: tf.pad(x, p, mode=mode), lambda x: np.pad(x, p, mode=mode.lower()), X)


def test_pad_constant_value_and_errors():
    check(lambda x: tf.pad(x, [[0, 1], [1, 0]], constant_values=-1.5),
          lambda x: np.pad(x, [[0, 1], [1, 0]], constant_values=-1.5), X)
    with pytest.raises(ValueError, match="REFLECT"):
        tf.pad(tf.ones([2, 2]), [[2, 0], [0, 0]], mode="REFLECT")
    with pytest.raises(ValueError, match="rank"):
        tf.pad(tf.ones([2, 2]), [[1, 1]])


# ------------------------------------------------------------- sorting
def test_sort_argsort_top_k():
    check(lambda x: tf.sort(x), lambda x: np.sort(x, -1), X)
    check(lambda x: tf.sort(x, axis=0, direction="DESCENDING"), lambda x: -np.sort(-x, 0), X)
    check(lambda v: tf.argsort(v), lambda v: np.argsort(v, kind="stable").astype(np.int32), V)
    # descending ties keep their order
    check(lambda v: tf.argsort(v, direction="DESCENDING"), lambda v: np.array([5, 0, 3, 2, 1, 4], np.int32), V)
    check(lambda v: list(tf.math.top_k(v, 2)), lambda v: [np.array([5, 3], np.int32), np.array([5, 0], np.int32)], V)
    res = tf.math.top_k(tf.constant(X), k=2)
    np.testing.assert_allclose(res.values.numpy(), -np.sort(-X, -1)[:, :2])
    assert res.indices.dtype is tf.int32


# ------------------------------------------------------------- masking etc
def test_boolean_mask_gather_nd_scatter():
    m = np.array([True, False, True])
    check(lambda x, m: tf.boolean_mask(x, m), lambda x, m: x[m], X, m)
    m2 = X > 0
    check(lambda x, m: tf.boolean_mask(x, m), lambda x, m: x[m], X, m2)
    idx = np.array([[0, 1], [2, 3]], np.int32)
    check(lambda x, i: tf.gather_nd(x, i), lambda x, i: x[i[:, 0], i[:, 1]], X, idx)
    check(lambda x, i: tf.gather_nd(x, i), lambda x, i: x[i[:, 0]], X, np.array([[2], [0]], np.int32))
    upd = np.array([1.5, -2.0], np.float32)

    def ref_update(x, i, u):
        y = x.copy()
        y[i[:, 0], i[:, 1]] = u
        return y

    check(lambda x, i, u: tf.tensor_scatter_nd_update(x, i, u), ref_update, X, idx, upd)
    check(lambda x, i, u: tf.tensor_scatter_nd_add(x, i, u), lambda x, i, u: ref_update(x, i, x[i[:, 0], i[:, 1]] + u),
          X, idx, upd)
    check(lambda i, u: tf.scatter_nd(i, u, [3, 4]), lambda i, u: ref_update(np.zeros([3, 4], np.float32), i, u),
          idx, upd)
    # duplicates are summed by scatter_nd
    np.testing.assert_array_equal(tf.scatter_nd([[1], [1]], [2, 3], [3]).numpy(), [0, 5, 0])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather_nd(tf.constant(X), [[5, 0]])


def test_gather_batch_dims():
    p = RNG.normal(size=(2, 3, 4)).astype(np.float32)
    i = np.array([[0, 2], [1, 1]], np.int32)
    check(lambda p, i: tf.gather(p, i, axis=1, batch_dims=1), lambda p, i: np.stack([p[b][i[b]] for b in range(2)]),
          p, i)


def test_where_one_and_three_arguments():
    check(lambda x: tf.where(x > 0), lambda x: np.argwhere(x > 0).astype(np.int64), X)
    check(lambda x: tf.where(x > 0, x, tf.zeros_like(x)), lambda x: np.where(x > 0, x, 0).astype(np.float32), X)


def test_unique():
    y, i = tf.unique(tf.constant(V))
    assert y.numpy().tolist() == [3, 1, 2, 5]
    assert i.numpy().tolist() == [0, 1, 2, 0, 1, 3]
    check(lambda v: list(tf.unique(v)), lambda v: [np.array([3, 1, 2, 5], np.int32), np.array([0, 1, 2, 0, 1, 3], np.int32)], V)


def test_cumulative_and_segments():
    check(lambda x: tf.cumsum(x, axis=1), lambda x: np.cumsum(x, 1), X)
    check(lambda x: tf.math.cumprod(x, axis=0), lambda x: np.cumprod(x, 0), X)
    check(lambda v: tf.cumsum(v, exclusive=True), lambda v: np.concatenate([[0], np.cumsum(v)[:-1]]).astype(np.int32), V)
    check(lambda v: tf.cumsum(v, reverse=True), lambda v: np.cumsum(v[::-1])[::-1].astype(np.int32), V)
    check(lambda v: tf.math.cumprod(v, exclusive=True, reverse=True),
          lambda v: np.array([30, 30, 15, 5, 5, 1], np.int32), V)
    ids = np.array([0, 0, 1, 3, 3, 3], np.int32)
    data = np.arange(6, dtype=np.float32)
    check(lambda d, i: tf.math.segment_sum(d, i), lambda d, i: np.array([1, 2, 0, 12], np.float32), data, ids)
    check(lambda d, i: tf.math.segment_max(d, i), lambda d, i: np.array([1, 2, 0, 5], np.float32), data, ids)
    check(lambda d, i: tf.math.segment_mean(d, i), lambda d, i: np.array([0.5, 2, 0, 4], np.float32), data, ids)
    check(lambda d, i: tf.math.unsorted_segment_sum(d, i, 5), lambda d, i: np.array([1, 2, 0, 12, 0], np.float32),
          data, ids)


def test_clipping():
    check(lambda x: tf.clip_by_value(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5), X)
    check(lambda x: tf.clip_by_norm(x, 1.0), lambda x: x / max(np.linalg.norm(x), 1.0), X)
    check(lambda x: tf.clip_by_norm(x, 1.0, axes=[1]),
          lambda x: x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1.0), X)
    a, b = tf.constant([3.0, 4.0]), tf.constant([[12.0]])
    clipped, norm = tf.clip_by_global_norm([a, None, b], 6.5)
    assert norm.numpy() == pytest.approx(13.0)
    assert clipped[1] is None
    np.testing.assert_allclose(clipped[0].numpy(), [1.5, 2.0])
    np.testing.assert_allclose(clipped[2].numpy(), [[6.0]])


def test_reverse_split():
    check(lambda x: tf.reverse(x, [1]), lambda x: x[:, ::-1], X)
    check(lambda x: tf.split(x, 2, axis=1), lambda x: np.split(x, 2, 1), X)
    check(lambda x: tf.split(x, [1, -1], axis=1), lambda x: np.split(x, [1], 1), X)


# ------------------------------------------------------------ math/linalg
def test_math_extras():
    p = np.abs(X) / 4
    check(tf.math.log1p, np.log1p, p)
    check(tf.math.expm1, np.expm1, X)
    check(tf.math.atan2, np.arctan2, X, X[::-1])
    check(tf.math.is_nan, np.isnan, np.array([1.0, np.nan], np.float32))
    check(lambda x: tf.math.reduce_logsumexp(x, axis=1),
          lambda x: np.log(np.exp(x).sum(1)).astype(np.float32), X)
    check(lambda x: tf.math.reduce_variance(x, axis=0), lambda x: x.var(0), X)
    check(lambda x: tf.math.reduce_std(x), lambda x: np.float32(x.std()), X)
    check(lambda x: tf.math.count_nonzero(x > 0), lambda x: np.int64((x > 0).sum()), X)
    check(lambda x, y: tf.math.divide_no_nan(x, y), lambda x, y: np.where(y == 0, 0, x / np.where(y == 0, 1, y)),
          np.array([1.0, 2.0], np.float32), np.array([0.0, 4.0], np.float32))


A = (RNG.normal(size=(3, 3)) + 3 * np.eye(3)).astype(np.float64)
SPD = A @ A.T


def test_linalg():
    check(tf.linalg.inv, np.linalg.inv, A)
    check(tf.linalg.det, np.linalg.det, A)
    check(tf.linalg.cholesky, np.linalg.cholesky, SPD)
    b = RNG.normal(size=(3, 2))
    check(tf.linalg.solve, np.linalg.solve, A, b)
    check(lambda a: list(tf.linalg.eigh(a)), lambda a: list(np.linalg.eigh(a)), SPD)
    check(tf.linalg.trace, np.trace, A)
    check(tf.linalg.diag_part, np.diag, A)
    check(tf.linalg.diag, np.diag, np.array([1, 2, 3], np.int32))
    check(tf.linalg.matrix_transpose, lambda a: np.swapaxes(a, -1, -2), RNG.normal(size=(2, 3, 4)))
    check(lambda a, b: tf.linalg.matmul(a, b), np.matmul, A, b)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not invertible"):
        tf.linalg.inv(tf.zeros([2, 2], tf.float64))


def test_norm():
    check(tf.norm, lambda x: np.float32(np.linalg.norm(x)), X)
    check(lambda x: tf.norm(x, ord=1, axis=1), lambda x: np.abs(x).sum(1), X)
    check(lambda x: tf.norm(x, ord=np.inf, axis=0), lambda x: np.abs(x).max(0), X)
    check(lambda x: tf.norm(x, ord=3, axis=1), lambda x: (np.abs(x) ** 3).sum(1) ** (1 / 3), X)
    check(lambda x: tf.norm(x, ord=1, axis=[0, 1]), lambda x: np.float32(np.linalg.norm(x, 1)), X)
    check(lambda x: tf.norm(x, ord=np.inf, axis=[-2, -1]), lambda x: np.float32(np.linalg.norm(x, np.inf)), X)
    check(lambda x: tf.norm(x, ord="fro", axis=[0, 1], keepdims=True),
          lambda x: np.linalg.norm(x, keepdims=True).astype(np.float32), X)


@pytest.mark.parametrize("eq", ["ij,jk->ik", "ij->ji", "ii->", "bij,bjk->bik", "ij,ij->i", "i,j", "...ij,...jk->...ik"])
def test_einsum(eq):
    shapes = {
        "ij,jk->ik": [(2, 3), (3, 4)], "ij->ji": [(2, 3)], "ii->": [(3, 3)], "bij,bjk->bik": [(2, 2, 3), (2, 3, 2)],
        "ij,ij->i": [(2, 3), (2, 3)], "i,j": [(2,), (3,)], "...ij,...jk->...ik": [(2, 2, 3), (2, 3, 2)],
    }[eq]
    args = [RNG.normal(size=s).astype(np.float32) for s in shapes]
    check(lambda *xs: tf.einsum(eq, *xs), lambda *xs: np.einsum(eq, *xs), *args, rtol=1e-4)


# ------------------------------------------------------------------ random
def test_seeds():
    tf.random.set_seed(5)
    a1, a2 = tf.random.uniform([3], seed=1), tf.random.uniform([3], seed=1)
    tf.random.set_seed(5)
    b1, b2 = tf.random.uniform([3], seed=1), tf.random.uniform([3], seed=1)
    assert a1.numpy().tolist() == b1.numpy().tolist()
    assert a2.numpy().tolist() == b2.numpy().tolist()
    assert a1.numpy().tolist() != a2.numpy().tolist()
    s1 = tf.random.stateless_uniform([2, 3], seed=[1, 2])
    s2 = tf.random.stateless_uniform([2, 3], seed=tf.constant([1, 2]))
    assert s1.numpy().tolist() == s2.numpy().tolist()
    assert s1.numpy().tolist() != tf.random.stateless_uniform([2, 3], seed=[1, 3]).numpy().tolist()

    @tf.function(input_signature=[tf.TensorSpec([2], tf.int32), tf.TensorSpec([], tf.int32)], autograph=False)
    def f(seed, n):
        return tf.random.stateless_normal([n, 3], seed=seed)

    r = f(tf.constant([1, 2]), tf.constant(2))
    assert r.shape.as_list() == [2, 3]
    np.testing.assert_array_equal(r.numpy(), f(tf.constant([1, 2]), tf.constant(2)).numpy())
    np.testing.assert_array_equal(r.numpy(), tf.random.stateless_normal([2, 3], seed=[1, 2]).numpy())
    t = tf.random.truncated_normal([1000], stddev=2.0)
    assert float(tf.reduce_max(tf.abs(t))) <= 4.0
    ints = tf.random.stateless_uniform([50], seed=[0, 0], minval=2, maxval=5, dtype=tf.int32)
    assert set(ints.numpy().tolist()) <= {2, 3, 4}


# --------------------------------------------------------------- functional
@pytest.mark.parametrize("unknown", [False, True])
@pytest.mark.parametrize("n", [3, 40])
def test_map_fn_scan_folds(n, unknown):
    xs = np.arange(1, n + 1, dtype=np.float32)

    def fn(x):
        return (
            tf.map_fn(lambda v: v * 2.0, x),
            tf.map_fn(lambda v: tf.cast(v, tf.int32), x, fn_output_signature=tf.int32),
            tf.scan(lambda a, v: a + v, x),
            tf.scan(lambda a, v: a * 0.5 + v, x, initializer=tf.constant(1.0), reverse=True),
            tf.foldl(lambda a, v: a - v, x),
            tf.foldr(lambda a, v: a - v, x, initializer=tf.constant(0.0)),
            tf.map_fn(lambda p: (p[0] + p[1], p[0] * p[1]), (x, x)),
        )

    def ref(x):
        rs = [1.0]
        for v in x[::-1]:
            rs.append(rs[-1] * 0.5 + v)
        return [x * 2, x.astype(np.int32), np.cumsum(x), np.array(rs[1:][::-1], np.float32),
                np.float32(x[0] - x[1:].sum()), np.float32(-x.sum()), (x + x, x * x)]

    want = ref(xs)
    for got in [fn(tf.constant(xs)), tf.function(fn, input_signature=[_spec(xs, unknown)], autograph=False)(
            tf.constant(xs))]:
        for g, w in zip(got[:-1], want[:-1]):
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-5)
            assert g.numpy().dtype == np.asarray(w).dtype
        np.testing.assert_allclose(got[-1][0].numpy(), want[-1][0])
        np.testing.assert_allclose(got[-1][1].numpy(), want[-1][1])


def test_map_fn_output_shape_may_differ_from_the_element():
    # without fn_output_signature, the output takes elems' dtype, not their shape
    x = np.arange(12, dtype=np.float32).reshape(4, 3)

    def fn(m):
        return tf.map_fn(lambda r: tf.reduce_sum(r * r), m), tf.map_fn(lambda r: tf.stack([r, r]), m)

    want = [(x * x).sum(axis=1), np.stack([x, x], axis=1)]
    for got in [fn(tf.constant(x)), tf.function(fn)(tf.constant(x)),
                tf.function(fn, input_signature=[tf.TensorSpec([None, 3])])(tf.constant(x))]:
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w)


def test_name_scope_in_and_out_of_function():
    with tf.name_scope("outer") as scope:
        assert scope == "outer/"
        x = tf.constant(1) + 1

    @tf.function(autograph=False)
    def f(v):
        with tf.name_scope("inner"):
            return v * 2

    assert int(f(x)) == 4


def test_nest():
    s = {"b": [1, (2, 3)], "a": 4}
    assert tf.nest.flatten(s) == [4, 1, 2, 3]
    assert tf.nest.pack_sequence_as(s, [40, 10, 20, 30]) == {"b": [10, (20, 30)], "a": 40}
    assert tf.nest.map_structure(lambda a, b: a + b, s, s) == {"b": [2, (4, 6)], "a": 8}
    tf.nest.assert_same_structure(s, {"a": 0, "b": [0, (0, 0)]})
    with pytest.raises(ValueError):
        tf.nest.assert_same_structure(s, {"a": 0, "b": [0, 0]})

"""tf.sparse and tf.ragged as TensorFlow's guides use them: each operation
eagerly, inside tf.function (shapes unknown while tracing, via input
signatures with None dimensions) and inside staged loops, against numpy."""
from __future__ import annotations

import sys

import numpy as np
import pytest

import autograph_cli.tf as tf

ROWS = [[1.0, 2.0, 3.0], [], [4.0], [5.0, 6.0]]
RAGGED_SIG = [tf.RaggedTensorSpec([None, None], tf.float32)]


def _np_pad(rows, default=0.0):
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), default, np.float32)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def _both(fn, *args, signature=None):
    """fn eagerly and as a tf.function (with an input signature if given)."""
    return fn(*args), tf.function(fn, input_signature=signature)(*args)


def _same(a, b):
    if isinstance(a, tf.RaggedTensor):
        assert isinstance(b, tf.RaggedTensor)
        assert a.to_list() == b.to_list()
    else:
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)


# ---------------------------------------------------------------- ragged
def test_ragged_properties_and_constructors():
    rt = tf.ragged.constant(ROWS)
    assert rt.shape.as_list() == [4, None] and rt.ragged_rank == 1 and rt.dtype == tf.float32
    assert rt.row_lengths().numpy().tolist() == [3, 0, 1, 2]
    assert rt.row_splits.numpy().tolist() == [0, 3, 3, 4, 6]
    assert rt.value_rowids().numpy().tolist() == [0, 0, 0, 2, 3, 3]
    assert int(rt.nrows()) == 4 and rt.bounding_shape().numpy().tolist() == [4, 3]
    assert repr(rt) == "<tf.RaggedTensor [[1.0, 2.0, 3.0], [], [4.0], [5.0, 6.0]]>"
    v = rt.flat_values
    for made in (tf.RaggedTensor.from_row_splits(v, [0, 3, 3, 4, 6]),
                 tf.RaggedTensor.from_row_lengths(v, [3, 0, 1, 2]),
                 tf.RaggedTensor.from_value_rowids(v, [0, 0, 0, 2, 3, 3], nrows=4),
                 tf.RaggedTensor.from_row_starts(v, [0, 3, 3, 4]),
                 tf.RaggedTensor.from_tensor(_np_pad(ROWS), lengths=[3, 0, 1, 2])):
        assert made.to_list() == ROWS
    assert tf.RaggedTensor.from_tensor(tf.constant([[1, 2, 0], [3, 0, 0]]), padding=0).to_list() == [[1, 2], [3]]
    assert [r.tolist() for r in rt.numpy()] == ROWS
    assert rt.with_values(rt.values * 2).to_list() == [[2 * x for x in r] for r in ROWS]


def test_ragged_rank_two_from_nested_lists():
    rt = tf.ragged.constant([[[1, 2], [3]], [], [[4], [5, 6, 7]]])
    assert rt.ragged_rank == 2 and rt.shape.as_list() == [3, None, None]
    assert rt[2].to_list() == [[4], [5, 6, 7]] and rt[2, 1].numpy().tolist() == [5, 6, 7]
    assert rt.to_tensor().numpy().tolist() == [[[1, 2, 0], [3, 0, 0]], [[0, 0, 0], [0, 0, 0]],
                                               [[4, 0, 0], [5, 6, 7]]]
    assert tf.reduce_sum(rt, axis=2).to_list() == [[3, 3], [], [4, 18]]
    uniform = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert uniform.shape.as_list() == [2, None, 2] and uniform.values.shape.as_list() == [3, 2]
    with pytest.raises(ValueError, match="nesting depth"):
        tf.ragged.constant([[1, [2]], [3]])


@pytest.mark.parametrize("default,shape", [(None, None), (-1.0, None), (9.0, [5, 2])])
def test_to_tensor_eager_and_staged(default, shape):
    rt = tf.ragged.constant(ROWS)
    want = _np_pad(ROWS, 0.0 if default is None else default)
    if shape is not None:
        padded = np.full(shape, default, np.float32)
        padded[:min(shape[0], want.shape[0]), :min(shape[1], want.shape[1])] = want[:shape[0], :shape[1]]
        want = padded
    for got in _both(lambda r: r.to_tensor(default_value=default, shape=shape), rt, signature=RAGGED_SIG):
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("key", ["i", "ij", "tail", "head", "cols", "step", "neg"])
def test_indexing_eager_and_staged(key):
    rt = tf.ragged.constant(ROWS)
    fns = {
        "i": (lambda r: r[3], lambda rows: np.array(rows[3])),
        "ij": (lambda r: r[0, 1], lambda rows: np.array(rows[0][1])),
        "tail": (lambda r: r[1:], lambda rows: rows[1:]),
        "head": (lambda r: r[:, :2], lambda rows: [x[:2] for x in rows]),
        "cols": (lambda r: r[:, -1:], lambda rows: [x[-1:] for x in rows]),
        "step": (lambda r: r[::2], lambda rows: rows[::2]),
        "neg": (lambda r: r[-1], lambda rows: np.array(rows[-1])),
    }
    fn, ref = fns[key]
    want = ref(ROWS)
    for got in _both(fn, rt, signature=RAGGED_SIG):
        if isinstance(got, tf.RaggedTensor):
            assert got.to_list() == want
        else:
            np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("name", ["abs", "exp", "sqrt", "square", "negative"])
def test_tf_math_unary_dispatch(name):
    rt = tf.ragged.constant(ROWS)
    op, ref = getattr(tf.math, name), getattr(np, name)
    for got in _both(lambda r: op(r), rt, signature=RAGGED_SIG):
        assert isinstance(got, tf.RaggedTensor)
        for g, r in zip(got.to_list(), ROWS):
            np.testing.assert_allclose(g, ref(np.array(r, np.float32)), rtol=1e-6)


def test_elementwise_arithmetic_and_broadcasting():
    rt = tf.ragged.constant(ROWS)
    per_row = tf.constant([[10.0], [20.0], [30.0], [40.0]])

    def f(r):
        return (r + r * 2.0, tf.add(r, 1.0), tf.multiply(2.0, r), r + per_row, tf.constant(3.0) - r, r > 2.0,
                tf.maximum(r, 2.5))

    want = ([[3 * x for x in r] for r in ROWS], [[x + 1 for x in r] for r in ROWS],
            [[2 * x for x in r] for r in ROWS], [[x + 10 * (i + 1) for x in r] for i, r in enumerate(ROWS)],
            [[3 - x for x in r] for r in ROWS], [[x > 2 for x in r] for r in ROWS],
            [[max(x, 2.5) for x in r] for r in ROWS])
    for got in _both(f, rt, signature=RAGGED_SIG):
        assert [g.to_list() for g in got] == list(want)


@pytest.mark.parametrize("kind", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_reductions_against_numpy(kind, axis):
    rows = [[1.0, 2.0, 3.0], [7.0], [4.0, -1.0]]
    rt = tf.ragged.constant(rows)
    npf = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}[kind]
    if axis is None:
        want = npf(np.concatenate([np.array(r) for r in rows]))
    elif axis in (1, -1):
        want = np.array([npf(r) for r in rows])
    else:
        width = max(len(r) for r in rows)
        want = np.array([npf([r[j] for r in rows if len(r) > j]) for j in range(width)])
    op = getattr(tf, f"reduce_{kind}")
    for got in _both(lambda r: op(r, axis=axis), rt, signature=RAGGED_SIG):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_empty_rows_reduce_as_tensorflow():
    rt = tf.ragged.constant([[1.0], []])
    assert tf.reduce_sum(rt, axis=1).numpy().tolist() == [1.0, 0.0]
    assert tf.reduce_max(rt, axis=1).numpy().tolist()[1] == -np.inf
    assert np.isnan(tf.reduce_mean(rt, axis=1).numpy()[1])


@pytest.mark.parametrize("axis", [0, 1])
def test_concat_and_stack(axis):
    a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], [5, 6, 7]])
    for got in _both(lambda x, y: tf.concat([x, y], axis=axis), a, b):
        assert got.to_list() == ([[1, 2], [3], [4], [5, 6, 7]] if axis == 0 else [[1, 2, 4], [3, 5, 6, 7]])
    for got in _both(lambda x, y: tf.stack([x, y], axis=axis), a, b):
        assert got.to_list() == ([[[1, 2], [3]], [[4], [5, 6, 7]]] if axis == 0 else
                                 [[[1, 2], [4]], [[3], [5, 6, 7]]])


def test_ragged_range_boolean_mask_map_flat_values():
    assert tf.ragged.range([3, 0, 5], [5, 2, 4]).to_list() == [[3, 4], [0, 1], []]
    assert tf.ragged.range([0, 1], 7, 3).to_list() == [[0, 3, 6], [1, 4]]
    data = tf.constant([[1, 2, 3], [4, 5, 6]])
    mask = tf.constant([[True, False, True], [False, False, False]])
    for got in _both(tf.ragged.boolean_mask, data, mask):
        assert got.to_list() == [[1, 3], []]
    rt = tf.ragged.constant(ROWS)
    got = tf.ragged.map_flat_values(lambda v, k: v * k + 1.0, rt, 2.0)
    assert got.to_list() == [[2 * x + 1 for x in r] for r in ROWS]


def test_ragged_through_function_boundaries_and_staged_loops():
    @tf.function
    def grow(rt, n):
        for _ in tf.range(n):
            rt = rt * 2.0 + 1.0
        return rt

    rt = tf.ragged.constant(ROWS)
    assert grow(rt, tf.constant(2)).to_list() == [[4 * x + 3 for x in r] for r in ROWS]
    # a RaggedTensor argument is traced by its type: other values of that type reuse the trace
    grow(tf.ragged.constant([[1.0], [2.0, 3.0], [], [1.0, 1.0, 1.0, 1.0]]), tf.constant(1))
    assert grow.experimental_get_tracing_count() == 1

    @tf.function(input_signature=RAGGED_SIG)
    def row_sums(rt):
        out = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for row in rt:
            out = out.write(out.size(), tf.reduce_sum(row))
        return out.stack()

    for rows in (ROWS, [[1.0, 1.0]]):
        np.testing.assert_allclose(row_sums(tf.ragged.constant(rows)).numpy(), [sum(r) for r in rows])
    assert row_sums.experimental_get_tracing_count() == 1
    with pytest.raises(ValueError, match="input_signature"):
        row_sums(tf.ragged.constant([[1, 2]]))  # int32: not the signature's dtype


def test_strings_split_gives_a_ragged_tensor_that_ops_accept():
    rt = tf.strings.split(tf.constant(["a bb", "ccc", ""]))
    assert rt.to_list() == [[b"a", b"bb"], [b"ccc"], []]
    assert tf.strings.length(rt).to_list() == [[1, 2], [3], []]
    assert rt.to_tensor().numpy().tolist() == [[b"a", b"bb"], [b"ccc", b""], [b"", b""]]


def test_gradient_through_ragged_flat_values():
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(v * 1.0, [1, 3])
        y = tf.reduce_sum(tf.reduce_sum(rt, axis=1) * tf.constant([10.0, 1.0])) + tf.reduce_sum(rt.to_tensor() ** 2)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [12.0, 5.0, 7.0, 9.0])


# ---------------------------------------------------------------- sparse
def _np_dense(indices, values, shape):
    out = np.zeros(shape, np.float32)
    for i, v in zip(indices, values):
        out[tuple(i)] += v
    return out


A_IDX, A_VAL, SHAPE = [[0, 1], [1, 0], [2, 3]], [1.0, 2.0, 3.0], [3, 4]
B_IDX, B_VAL = [[0, 1], [0, 3], [2, 3]], [10.0, 20.0, 30.0]
SPARSE_SIG = [tf.SparseTensorSpec([None, 4], tf.float32)]


def _a():
    return tf.SparseTensor(A_IDX, A_VAL, SHAPE)


def test_sparse_tensor_basics_and_repr():
    sp = _a()
    assert sp.shape == tf.TensorShape([3, 4]) and sp.dtype == tf.float32 and sp.get_shape().rank == 2
    assert repr(sp).startswith("SparseTensor(indices=tf.Tensor(\n[[0 1]\n [1 0]\n [2 3]], shape=(3, 2), dtype=int64)")
    assert tf.SparseTensor.from_value(sp) is sp
    np.testing.assert_array_equal(tf.sparse.to_dense(sp.with_values(sp.values * 2)).numpy(),
                                  _np_dense(A_IDX, [2, 4, 6], SHAPE))
    np.testing.assert_array_equal(tf.sparse.to_dense(tf.math.abs(sp * -1.0)).numpy(), _np_dense(A_IDX, A_VAL, SHAPE))


def test_sparse_add_and_matmul_eager_and_staged():
    dense_a, dense_b = _np_dense(A_IDX, A_VAL, SHAPE), _np_dense(B_IDX, B_VAL, SHAPE)
    m = np.arange(8, dtype=np.float32).reshape(4, 2)
    m3 = np.arange(6, dtype=np.float32).reshape(3, 2)

    def f(a, b):
        return (tf.sparse.to_dense(tf.sparse.add(a, b)), tf.sparse.add(a, tf.ones([3, 4])),
                tf.sparse.sparse_dense_matmul(a, m), tf.sparse.sparse_dense_matmul(a, m3, adjoint_a=True),
                tf.sparse.sparse_dense_matmul(a, m.T, adjoint_b=True),
                tf.sparse.sparse_dense_matmul(m3.T, a))

    want = (dense_a + dense_b, dense_a + 1, dense_a @ m, dense_a.T @ m3, dense_a @ m, m3.T @ dense_a)
    sig = SPARSE_SIG * 2
    for got in _both(f, _a(), tf.SparseTensor(B_IDX, B_VAL, SHAPE), signature=sig):
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_sparse_reductions(axis, keepdims):
    idx, val = [[0, 0], [0, 2], [1, 1]], [-7.0, -2.0, 4.0]
    sp = tf.SparseTensor(idx, val, [3, 3])
    dense = _np_dense(idx, val, [3, 3])
    present = _np_dense(idx, [1, 1, 1], [3, 3]) > 0
    masked = np.where(present, dense, -np.inf)
    want_max = np.max(masked, axis=axis, keepdims=keepdims)
    want_max = np.where(np.isneginf(want_max), 0.0, want_max)  # no stored entry: 0
    for got in _both(lambda s: (tf.sparse.reduce_sum(s, axis=axis, keepdims=keepdims),
                                tf.sparse.reduce_max(s, axis=axis, keepdims=keepdims)), sp,
                     signature=[tf.SparseTensorSpec([None, 3], tf.float32)]):
        np.testing.assert_allclose(got[0].numpy(), dense.sum(axis=axis, keepdims=keepdims))
        np.testing.assert_allclose(got[1].numpy(), want_max)


def test_sparse_reshape_concat_slice_retain_transpose_reorder():
    dense = _np_dense(A_IDX, A_VAL, SHAPE)

    def f(a):
        shuffled = tf.SparseTensor(tf.reverse(a.indices, [0]), tf.reverse(a.values, [0]), a.dense_shape)
        return (tf.sparse.to_dense(tf.sparse.reshape(a, [2, -1])),
                tf.sparse.to_dense(tf.sparse.concat(1, [a, a])),
                tf.sparse.to_dense(tf.sparse.concat(0, [a, a])),
                tf.sparse.to_dense(tf.sparse.slice(a, [1, 0], [2, 2])),
                tf.sparse.to_dense(tf.sparse.retain(a, tf.constant([True, False, True]))),
                tf.sparse.to_dense(tf.sparse.transpose(a)),
                tf.sparse.reorder(shuffled).indices)

    retained = dense.copy()
    retained[1, 0] = 0
    want = (dense.reshape(2, 6), np.concatenate([dense, dense], 1), np.concatenate([dense, dense], 0),
            dense[1:3, 0:2], retained, dense.T, np.array(A_IDX))
    for got in _both(f, _a(), signature=SPARSE_SIG):
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w)


def test_sparse_misc_ops():
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [1, 3, 0], [2, 2])
    assert tf.sparse.to_indicator(ids, 4).numpy().tolist() == [[False, True, False, True],
                                                               [True, False, False, False]]
    filled, empty = tf.sparse.fill_empty_rows(tf.SparseTensor([[0, 1], [2, 0]], [1.0, 2.0], [4, 2]), -1.0)
    assert empty.numpy().tolist() == [False, True, False, True]
    assert tf.sparse.to_dense(filled).numpy().tolist() == [[0, 1], [-1, 0], [2, 0], [-1, 0]]
    np.testing.assert_array_equal(tf.sparse.to_dense(tf.sparse.eye(3, 4)).numpy(), np.eye(3, 4))
    sm = tf.sparse.to_dense(tf.sparse.softmax(tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, 2.0, 5.0], [2, 3])))
    e = np.exp([1.0, 2.0]) / np.exp([1.0, 2.0]).sum()
    np.testing.assert_allclose(sm.numpy(), [[e[0], 0, e[1]], [0, 1, 0]], rtol=1e-6)
    mapped = tf.sparse.map_values(tf.multiply, _a(), 3.0)
    assert mapped.values.numpy().tolist() == [3.0, 6.0, 9.0]
    np.testing.assert_allclose(tf.sparse.to_dense(_a() * tf.constant([1.0, 2.0, 3.0, 4.0])).numpy(),
                               _np_dense(A_IDX, A_VAL, SHAPE) * [1, 2, 3, 4])
    with pytest.raises(NotImplementedError, match="output_is_sparse"):
        tf.sparse.reduce_sum(_a(), axis=1, output_is_sparse=True)


def test_sparse_in_a_staged_loop_and_gradients_through_values():
    @tf.function
    def double(sp, n):
        for _ in tf.range(n):
            sp = tf.sparse.add(sp, sp)
        return tf.sparse.to_dense(sp)

    np.testing.assert_array_equal(double(_a(), tf.constant(2)).numpy(), 4 * _np_dense(A_IDX, A_VAL, SHAPE))
    v = tf.Variable(A_VAL)
    m = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2))
    with tf.GradientTape() as tape:
        sp = tf.SparseTensor(A_IDX, v * 1.0, SHAPE)
        y = (tf.reduce_sum(tf.sparse.sparse_dense_matmul(sp, m)) + tf.reduce_sum(tf.sparse.to_dense(sp) ** 2)
             + tf.sparse.reduce_sum(sp))
    # d/dv_i = row sums of m at the column + 2 v_i + 1
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [5 + 2 + 1, 1 + 4 + 1, 13 + 6 + 1])


def test_composites_refuse_conversion_and_unsupported_forms_clearly():
    with pytest.raises(TypeError, match="Cannot convert .*RaggedTensor.* to a Tensor"):
        tf.convert_to_tensor(tf.ragged.constant([[1], [2]]))
    with pytest.raises(TypeError, match="tf.sparse.concat"):
        tf.concat([_a(), _a()], 0)
    with pytest.raises(TypeError, match="newaxis"):
        tf.ragged.constant(ROWS)[..., 0]


def test_tf_print_of_composites_eager_and_staged(capsys):
    rt = tf.ragged.constant([[3, 1], [], [5]])
    sp = tf.SparseTensor([[0, 1]], [7], [2, 2])

    @tf.function
    def show(r, s):
        tf.print(r, s, output_stream=sys.stdout)

    tf.print(rt, sp, output_stream=sys.stdout)
    show(rt, sp)
    lines = capsys.readouterr().out.splitlines()
    want = "<tf.RaggedTensor [[3, 1], [], [5]]> 'SparseTensor(indices=[[0 1]], values=[7], shape=[2 2])'"
    assert lines == [want, want]


def test_more_ops_dispatch_on_ragged_and_dataset_rows():
    rt = tf.ragged.constant([[3, 1, 4], [], [5, 9]])

    def f(r):
        return (tf.gather(r, [2, 0]), tf.expand_dims(r, 0), tf.expand_dims(r, 1), tf.size(r),
                tf.boolean_mask(r, r > 3), tf.ones_like(r))

    for got in _both(f, rt, signature=[tf.RaggedTensorSpec([None, None], tf.int32)]):
        assert got[0].to_list() == [[5, 9], [3, 1, 4]]
        assert got[1].to_list() == [[[3, 1, 4], [], [5, 9]]]
        assert got[2].to_list() == [[[3, 1, 4]], [[]], [[5, 9]]]
        assert int(got[3]) == 5
        assert got[4].to_list() == [[4], [], [5, 9]]
        assert got[5].to_list() == [[1, 1, 1], [], [1, 1]]
    ds = tf.data.Dataset.from_tensor_slices({"x": rt, "y": tf.constant([1, 2, 3])})
    assert [e["x"].numpy().tolist() for e in ds] == [[3, 1, 4], [], [5, 9]]

    @tf.function
    def weighted(ds):
        s = tf.constant(0)
        for e in ds:
            s += tf.reduce_sum(e["x"]) * e["y"]
        return s

    assert int(weighted(ds)) == 8 * 1 + 0 * 2 + 14 * 3


def test_guide_idioms_bigrams_sparse_round_trip_and_loops():
    q = tf.ragged.constant([["what", "is", "it"], ["who"], []])
    assert tf.strings.join([q[:, :-1], q[:, 1:]], separator="+").to_list() == [[b"what+is", b"is+it"], [], []]
    st = tf.ragged.constant([[1, 2], [], [3]]).to_sparse()
    assert st.indices.numpy().tolist() == [[0, 0], [0, 1], [2, 0]] and st.dense_shape.numpy().tolist() == [3, 2]
    assert tf.RaggedTensor.from_sparse(st).to_list() == [[1, 2], [], [3]]
    assert tf.RaggedTensor.from_uniform_row_length(tf.range(6), 2).to_list() == [[0, 1], [2, 3], [4, 5]]

    @tf.function
    def grow(rt, n):
        for _ in tf.range(n):  # the loop variable's number of values changes
            rt = tf.concat([rt, tf.ragged.constant([[1], [2]])], axis=1)
        return rt

    assert grow(tf.ragged.constant([[0], []]), tf.constant(3)).to_list() == [[0, 1, 1, 1], [2, 2, 2]]

    @tf.function
    def nested(rt):
        return tf.reduce_sum(rt, axis=-1), rt[:, :1], rt * 2

    got = nested(tf.ragged.constant([[[1, 2], [3]], [], [[4]]]))
    assert got[0].to_list() == [[3, 3], [], [4]]
    assert got[1].to_list() == [[[1, 2]], [], [[4]]]
    assert got[2].to_list() == [[[2, 4], [6]], [], [[8]]]



def test_guide_shapes_broadcasting_merge_dims_and_integer_means():
    x = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)
    assert (x + tf.constant([[10]])).to_list() == [[[11, 12], [13, 14], [15, 16]], [[17, 18]]]
    deep = tf.ragged.constant([[[[1], [2]], [], [[3]]], [[[5]]]], ragged_rank=2)
    assert (deep + tf.constant([10, 20])).to_list() == [[[[11, 21], [12, 22]], [], [[13, 23]]], [[[15, 25]]]]
    n = tf.ragged.constant([[[1, 2], [3]], [], [[4]]])
    assert n.merge_dims(1, 2).to_list() == [[1, 2, 3], [], [4]]
    assert n.merge_dims(0, 1).to_list() == [[1, 2], [3], [4]]
    assert n.merge_dims(0, -1).numpy().tolist() == [1, 2, 3, 4]
    assert x.merge_dims(1, 2).to_list() == [[1, 2, 3, 4, 5, 6], [7, 8]]
    means = tf.reduce_mean(tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2]]), axis=1)
    assert means.dtype == tf.float64
    np.testing.assert_allclose(means.numpy(), [2.25, np.nan, 16 / 3])
    words = tf.ragged.constant([["Hi"], ["Welcome", "to", "the", "fair"]])
    padded = words.to_tensor(default_value="", shape=[None, 5])
    assert padded.numpy().tolist() == [[b"Hi", b"", b"", b"", b""], [b"Welcome", b"to", b"the", b"fair", b""]]
    assert tf.ragged.constant([[1, 2, 3], [4]]).to_tensor(shape=[1, 2]).numpy().tolist() == [[1, 2]]
    assert tf.concat([tf.ragged.constant([[1], []]), [[5, 3]]], axis=0).to_list() == [[1], [], [5, 3]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"index \[7, 0\].*out of bounds"):
        tf.sparse.add(_a(), tf.SparseTensor([[7, 0]], [1.0], SHAPE))


def test_map_fn_over_ragged_rows():
    rt = tf.ragged.constant(ROWS)
    for got in _both(lambda r: tf.map_fn(tf.reduce_sum, r, fn_output_signature=tf.float32), rt,
                     signature=RAGGED_SIG):
        np.testing.assert_allclose(got.numpy(), [sum(r) for r in ROWS])
    # no signature: the results are as ragged as the rows (TensorFlow's default is the elements' signature)
    for got in _both(lambda r: tf.map_fn(lambda row: row * 2, r), rt, signature=RAGGED_SIG):
        assert got.to_list() == [[2 * v for v in r] for r in ROWS]
    with pytest.raises(ValueError, match="must return a vector"):
        tf.map_fn(tf.reduce_sum, rt)


def test_saved_model_with_composite_arguments_and_results(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=RAGGED_SIG)
        def sums(self, r):
            return tf.reduce_sum(r, axis=1), r * 2.0

        @tf.function
        def twice(self, s):
            return tf.sparse.add(s, s)

    m = M()
    m.twice(_a())
    tf.saved_model.save(m, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    sums, doubled = loaded.sums(tf.ragged.constant(ROWS))
    np.testing.assert_allclose(sums.numpy(), [sum(r) for r in ROWS])
    assert doubled.to_list() == [[2 * x for x in r] for r in ROWS]
    np.testing.assert_array_equal(tf.sparse.to_dense(loaded.twice(_a())).numpy(), 2 * _np_dense(A_IDX, A_VAL, SHAPE))


def test_gradient_with_respect_to_a_composite_is_a_composite():
    rt = tf.ragged.constant([[1.0, 2.0], [3.0]])
    sp = tf.SparseTensor([[0, 1], [1, 0]], [2.0, 5.0], [2, 2])
    with tf.GradientTape() as tape:
        tape.watch([rt, sp])
        y = tf.reduce_sum(rt * rt) + tf.sparse.reduce_sum(sp * 3.0)
    g_rt, g_sp = tape.gradient(y, [rt, sp])
    assert isinstance(g_rt, tf.RaggedTensor) and g_rt.to_list() == [[2.0, 4.0], [6.0]]
    assert isinstance(g_sp, tf.SparseTensor) and g_sp.values.numpy().tolist() == [3.0, 3.0]
    assert g_sp.indices.numpy().tolist() == [[0, 1], [1, 0]]


def test_tf_shape_and_where_of_ragged_and_numpy_rows():
    rt = tf.ragged.constant([[1, 2], [], [3]])
    shape = tf.shape(rt)
    assert repr(shape) == "<DynamicRaggedShape lengths=[3, (2, 0, 1)] num_row_partitions=1>"
    assert int(shape[0]) == 3 and shape.rank == 2
    with pytest.raises(ValueError, match="not uniform"):
        shape[1]
    for got in _both(lambda r: tf.where(r > 1, r * 10, r), rt, signature=[tf.RaggedTensorSpec([None, None], tf.int32)]):
        assert got.to_list() == [[1, 20], [], [30]]
    assert tf.ragged.constant([np.array([1, 2]), np.array([3])]).to_list() == [[1, 2], [3]]


def test_dataset_of_ragged_rows_batches_padded_and_refuses_plain_batch_clearly():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6]]))
    assert [b.numpy().tolist() for b in ds.padded_batch(2)] == [[[3, 1, 4, 1], [0, 0, 0, 0]], [[5, 9, 2], [6, 0, 0]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="different shapes in component 0.*padded_batch"):
        list(ds.batch(2))


def test_composite_classes_are_plain_python_arguments():
    @tf.function
    def scaled(kind, x):
        return x * 2 if kind is tf.RaggedTensor else x

    assert int(scaled(tf.RaggedTensor, tf.constant(1))) == 2
    assert int(scaled(tf.SparseTensorSpec, tf.constant(1))) == 1
    assert scaled(tf.RaggedTensor, tf.ragged.constant([[1]])).to_list() == [[2]]

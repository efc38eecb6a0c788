"""Dynamic shapes as TensorFlow users meet them: input signatures with None
dimensions and unknown rank, the static shapes a trace sees (what TensorFlow
reports), the runtime shapes, the shape errors (messages TensorFlow's), and
data-dependent output shapes. Each program runs eagerly, traced with None
dimensions and, where XLA would compile it, with jit_compile (JAX): the same
values everywhere."""
from __future__ import annotations

import numpy as np
import pytest

import autograph_cli.tf as tf

try:
    import jax  # noqa: F401

    HAVE_JAX = True
except ImportError:  # pragma: no cover - the jax extra is absent
    HAVE_JAX = False


def _np(v):
    if isinstance(v, (list, tuple)):
        return [_np(x) for x in v]
    if isinstance(v, (bool, int, float)):  # a Python number: the tensor a function returns for it
        v = tf.constant(v)
    return np.asarray(v)


def _same(a, b):
    a, b = _np(a), _np(b)
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
        return
    assert a.dtype == b.dtype and a.shape == b.shape, (a, b)
    np.testing.assert_array_equal(a, b)


def differential(fn, signature, *args, jit=True):
    """fn eagerly, traced under `signature`, and (jit) compiled: equal values;
    returns the static shapes the trace saw (fn records them in `seen`)."""
    seen.clear()
    want = fn(*args)
    seen.clear()
    got = tf.function(fn, input_signature=signature)(*args)
    static = list(seen)
    _same(want, got)
    if jit and HAVE_JAX:
        _same(want, tf.function(fn, input_signature=signature, jit_compile=True)(*args))
    return static


seen: list = []


# ------------------------------------------------------------ static shapes in a trace
def test_none_dimension_static_and_runtime_shapes():
    def f(x):
        seen.append((x.shape, x.shape[0], x.shape.as_list(), x.shape.rank, x.shape.is_fully_defined(),
                     x.get_shape() == x.shape))
        return tf.shape(x), tf.size(x), tf.rank(x)

    static = differential(f, [tf.TensorSpec([None, 3])], tf.ones([5, 3]))
    assert static == [(tf.TensorShape([None, 3]), None, [None, 3], 2, False, True)]
    assert str(static[0][0]) == "(None, 3)" and repr(static[0][0]) == "TensorShape([None, 3])"


def test_unknown_rank_signature():
    def f(x):
        seen.append((x.shape, x.shape.rank, x.shape.ndims, bool(x.shape)))
        return tf.rank(x), tf.reduce_sum(x)

    assert differential(f, [tf.TensorSpec(shape=None)], tf.ones([2, 3, 4]), jit=False) == \
        [(tf.TensorShape(None), None, None, False)]
    def full_reductions(x):
        parts = (tf.reduce_sum(x), tf.reduce_mean(x), tf.reduce_max(x), tf.reduce_sum(x, keepdims=True),
                 tf.reduce_sum(x, 0), tf.shape(x), tf.reshape(x, [-1]))
        seen.append([p.shape for p in parts])
        return parts

    # reducing every axis gives a scalar whatever the rank
    assert differential(full_reductions, [tf.TensorSpec(shape=None)], tf.ones([2, 3])) == [[
        tf.TensorShape([]), tf.TensorShape([]), tf.TensorShape([]), tf.TensorShape(None), tf.TensorShape(None),
        tf.TensorShape([None]), tf.TensorShape([None])]]
    out = tf.function(f, input_signature=[tf.TensorSpec(shape=None)])(tf.ones([7]))
    assert out[0].numpy() == 1 and out[1].numpy() == 7.0


def test_shapes_built_from_tensor_shapes():
    def f(x):
        parts = (tf.reshape(x, [-1]), tf.reshape(x, tf.shape(x)[::-1]), tf.reshape(x, [tf.shape(x)[0], 3, 1]),
                 tf.zeros(tf.shape(x)), tf.fill([tf.shape(x)[0], 2], 1.5), tf.broadcast_to(tf.ones([3]), tf.shape(x)),
                 x[:tf.shape(x)[0] // 2], tf.ones([tf.shape(x)[0]]), tf.zeros_like(x))
        seen.append([p.shape.as_list() for p in parts])
        return parts

    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3])
    static = differential(f, [tf.TensorSpec([None, 3])], x)
    assert static == [[[None], [3, None], [None, 3, 1], [None, 3], [None, 2], [None, 3], [None, 3], [None],
                       [None, 3]]]


def test_ops_keep_the_known_dimensions():
    def f(x):
        a, b = tf.split(x, 2, axis=1)
        parts = (tf.matmul(x, tf.transpose(x)), tf.concat([x, x], axis=1), tf.stack([x, x]), tf.expand_dims(x, -1),
                 a, tf.reduce_sum(x, axis=0), tf.reduce_sum(x, axis=1, keepdims=True), tf.argmax(x, axis=1),
                 x[..., tf.newaxis], tf.tile(x, [2, 1]), tf.pad(x, [[1, 1], [0, 2]]))
        seen.append([p.shape.as_list() for p in parts])
        return parts

    static = differential(f, [tf.TensorSpec([None, 4])], tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]))
    assert static == [[[None, None], [None, 8], [2, None, 4], [None, 4, 1], [None, 2], [4], [None, 1], [None],
                       [None, 4, 1], [None, 4], [None, 6]]]


def test_data_dependent_output_shapes():
    def f(x):
        parts = [tf.boolean_mask(x, x > 0), tf.where(x > 0), tf.unique(x)[0],
                 tf.gather(x, tf.range(tf.shape(x)[0] // 2))] + tf.dynamic_partition(x, tf.cast(x > 0, tf.int32), 2)
        seen.append([p.shape.as_list() for p in parts])
        return parts

    x = tf.constant([1., -2., 3., 1., -5.])
    static = differential(f, [tf.TensorSpec([None])], x, jit=False)
    assert static == [[[None], [None, 1], [None], [None], [None], [None]]]
    out = f(x)
    assert out[0].numpy().tolist() == [1., 3., 1.] and out[2].numpy().tolist() == [1., -2., 3., -5.]
    assert out[4].numpy().tolist() == [-2., -5.] and out[5].numpy().tolist() == [1., 3., 1.]


def test_dynamic_partition_and_stitch_round_trip():
    # tf.dynamic_stitch's documented example, and partition/stitch inverting each other
    idx = [tf.constant(6), tf.constant([4, 1]), tf.constant([[5, 2], [0, 3]])]
    data = [tf.constant([61, 62]), tf.constant([[41, 42], [11, 12]]),
            tf.constant([[[51, 52], [21, 22]], [[1, 2], [31, 32]]])]
    assert tf.dynamic_stitch(idx, data).numpy().tolist() == [[1, 2], [11, 12], [21, 22], [31, 32], [41, 42],
                                                             [51, 52], [61, 62]]
    # a repeated index: the later slice wins
    assert tf.dynamic_stitch([tf.constant([0, 1]), tf.constant([1, 2])],
                             [tf.constant([1., 2.]), tf.constant([3., 4.])]).numpy().tolist() == [1., 3., 4.]

    def f(x, p):
        rows = tf.dynamic_partition(x, p, 3)
        where = tf.dynamic_partition(tf.range(tf.shape(x)[0]), p, 3)
        out = tf.dynamic_stitch(where, rows)
        seen.append([r.shape.as_list() for r in rows] + [out.shape.as_list()])
        return rows + [out]

    x = tf.reshape(tf.range(10), [5, 2])
    static = differential(f, [tf.TensorSpec([None, 2], tf.int32), tf.TensorSpec([None], tf.int32)], x,
                          tf.constant([2, 0, 2, 1, 0]), jit=False)
    assert static == [[[None, 2], [None, 2], [None, 2], [None, 2]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"partitions\[1\] = 3 is not in \[0, 3\)"):
        tf.dynamic_partition(x, tf.constant([0, 3, 0, 0, 0]), 3)


def test_map_fn_family_with_a_none_batch():
    def f(x):
        parts = (tf.map_fn(lambda r: r * 2, x), tf.vectorized_map(lambda r: tf.reduce_sum(r), x),
                 tf.vectorized_map(lambda r: (r[0], tf.cast(r, tf.int32)), x),
                 tf.scan(lambda acc, r: acc + r, x), tf.foldl(lambda acc, r: acc + r, x))
        seen.append([p.shape.as_list() for p in tf.nest.flatten(parts)])
        return tf.nest.flatten(parts)

    static = differential(f, [tf.TensorSpec([None, 2])], tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]))
    assert static == [[[None, 2], [None], [None], [None, 2], [None, 2], [2]]]


# ------------------------------------------------------------ len()
def test_len_of_tensors():
    def f(x):
        n = len(x)
        seen.append(type(n).__name__)
        return n

    # converted code: a static first dimension is a Python int, an unknown one tf.shape(x)[0]
    assert differential(f, [tf.TensorSpec([2, 3])], tf.ones([2, 3]), jit=False) == ["int"]
    assert tf.function(f, input_signature=[tf.TensorSpec([None, 3])])(tf.ones([4, 3])).numpy() == 4
    assert tf.function(f, input_signature=[tf.TensorSpec(None)])(tf.ones([5])).numpy() == 5
    with pytest.raises(tf.errors.InvalidArgumentError, match="len requires non-zero rank, got 0"):
        tf.function(f, input_signature=[tf.TensorSpec(None)])(tf.constant(1.))
    with pytest.raises(ValueError, match=r"len requires a non-scalar tensor, got one of shape \(\)"):
        tf.function(f, input_signature=[tf.TensorSpec([])])(tf.constant(1.))
    # unconverted: TensorFlow's errors
    with pytest.raises(TypeError, match=r"len is not well defined for symbolic Tensors\. \(x:0\) Please call "
                                        r"`x.shape` rather than `len\(x\)`"):
        tf.function(f, input_signature=[tf.TensorSpec([None, 3])], autograph=False)(tf.ones([2, 3]))
    with pytest.raises(TypeError, match="Scalar tensor has no `len\\(\\)`"):
        len(tf.constant(1.))


# ------------------------------------------------------------ ensure_shape / set_shape
def test_ensure_shape_checks_when_the_graph_runs():
    def f(x):
        y = tf.ensure_shape(x, [2, None])
        seen.append(y.shape.as_list())
        return y * 2

    assert differential(f, [tf.TensorSpec([None, 3])], tf.ones([2, 3])) == [[2, 3]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape of tensor \(4, 3\) is not compatible with "
                                                             r"expected shape \(2, None\)"):
        tf.function(f, input_signature=[tf.TensorSpec([None, 3])])(tf.ones([4, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape of tensor \(1, 3\) is not compatible"):
        tf.ensure_shape(tf.ones([1, 3]), [None, 2])  # eagerly: the kernel's runtime error too
    with pytest.raises(ValueError, match="not compatible"):  # statically incompatible: while tracing
        tf.function(lambda x: tf.ensure_shape(x, [None, 2]), input_signature=[tf.TensorSpec([None, 3])])(
            tf.ones([1, 3]))


def test_set_shape():
    def f(x):
        x.set_shape([2, None])
        seen.append(x.shape.as_list())
        return x

    assert differential(f, [tf.TensorSpec([None, 3])], tf.ones([2, 3]), jit=False) == [[2, 3]]
    with pytest.raises(ValueError, match=r"Tensor's shape \(None, 3\) is not compatible with supplied shape "
                                         r"\(2, 4\)"):
        tf.function(lambda x: x.set_shape([2, 4]), input_signature=[tf.TensorSpec([None, 3])])(tf.ones([2, 3]))
    t = tf.ones([2, 3])
    t.set_shape([None, 3])  # an eager tensor's shape is known: only checked
    with pytest.raises(ValueError, match=r"Tensor's shape \(2, 3\) is not compatible with supplied shape \(3,\)"):
        t.set_shape([3])


# ------------------------------------------------------------ loops whose variables change shape
def test_growing_loop_variable_needs_a_shape_invariant():
    def grow(n):
        x = tf.zeros([0])
        for i in tf.range(n):
            x = tf.concat([x, [tf.cast(i, tf.float32)]], 0)
        return x

    with pytest.raises(ValueError, match=r"'x' has shape \(0,\) before the loop, but shape \(1,\) after one "
                                         r"iteration\. Use tf\.autograph\.experimental\.set_loop_options to set "
                                         r"shape invariants\.") as e:
        tf.function(grow)(tf.constant(3))
    assert "test_dynamic_shapes.py:" in str(e.value)

    def grow_relaxed(n):
        x = tf.zeros([0])
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
            x = tf.concat([x, [tf.cast(i, tf.float32)]], 0)
        seen.append(x.shape.as_list())
        return x

    assert differential(grow_relaxed, None, tf.constant(3), jit=False) == [[None]]
    assert tf.function(grow_relaxed)(tf.constant(3)).numpy().tolist() == [0., 1., 2.]


def test_shape_invariant_violations_name_the_variable():
    def start_outside(n):
        x = tf.zeros([2])
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([3]))])
            x = tf.zeros([3])
        return x

    with pytest.raises(ValueError, match=r"'x' has shape \(2,\) before the loop, which does not conform with the "
                                         r"shape invariant \(3,\)\."):
        tf.function(start_outside)(tf.constant(2))

    def leave(n):
        x = tf.zeros([2, 2])
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None, 2]))])
            x = tf.concat([x, x], 1)
        return x

    with pytest.raises(ValueError, match=r"'x' has shape \(None, 4\) after one iteration, which does not conform "
                                         r"with the shape invariant \(None, 2\)\."):
        tf.function(leave)(tf.constant(2))


def test_while_loop_shape_invariants_api():
    def doubling(use_invariants):
        i0, m0 = tf.constant(0), tf.ones([2, 2])
        kw = {"shape_invariants": [i0.shape, tf.TensorShape([None, 2])]} if use_invariants else {}
        return tf.while_loop(lambda i, m: i < 3, lambda i, m: [i + 1, tf.concat([m, m], axis=0)], [i0, m0], **kw)

    want = doubling(True)  # eagerly the invariants are not needed (nor checked)
    assert want[1].shape == (16, 2) and doubling(False)[1].shape == (16, 2)
    got = tf.function(lambda: doubling(True))()
    _same(want, got)
    with pytest.raises(ValueError, match=r"Input tensor `ones:0` enters the loop with shape \(2, 2\), but has shape "
                                         r"\(4, 2\) after one iteration\. To allow the shape to vary across iterations, "
                                         r"use the `shape_invariants` argument of tf\.while_loop"):
        tf.function(lambda: doubling(False))()

    @tf.function
    def bad_start():
        i0, m0 = tf.constant(0), tf.ones([2, 2])
        return tf.while_loop(lambda i, m: i < 3, lambda i, m: [i + 1, m], [i0, m0],
                             shape_invariants=[i0.shape, tf.TensorShape([3, 2])])

    with pytest.raises(ValueError, match=r"shape invariant specified for ones:0 is not compatible with the initial "
                                         r"shape of the loop variable\. It enters the loop with shape \(2, 2\)"):
        bad_start()


def test_while_loop_maximum_iterations_when_staged():
    def f(x):
        return tf.while_loop(lambda i, m: i < 100, lambda i, m: (i + 1, m * 2), [tf.constant(0), x],
                             maximum_iterations=3)

    x = tf.constant(1.)
    _same(f(x), [3, 8.])
    _same(tf.function(f)(x), [np.int32(3), np.float32(8.)])


def test_tensor_array_element_shape_and_range_loops():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        s = tf.constant(0.)
        for i in tf.range(tf.shape(x)[0]):
            ta = ta.write(i, x[i] * 2)
            s += tf.reduce_sum(x[i])
        out = ta.stack()
        seen.append(out.shape.as_list())
        return out, s

    x = tf.reshape(tf.range(6, dtype=tf.float32), [3, 2])
    assert differential(f, [tf.TensorSpec([None, 2])], x, jit=False) == [[None, 2]]


# ------------------------------------------------------------ TensorShape
def test_tensor_shape_api():
    s = tf.TensorShape([None, 3])
    assert s == tf.TensorShape([None, 3]) and s == [None, 3] and not (s != [None, 3])
    assert s.is_compatible_with([5, 3]) and not s.is_compatible_with([5, 4]) and not s.is_compatible_with([3])
    assert s.merge_with([5, None]) == [5, 3]
    with pytest.raises(ValueError, match=r"Shapes \(None, 3\) and \(5, 4\) are not compatible"):
        s.merge_with([5, 4])
    assert s.concatenate([1]) == [None, 3, 1] and s + [2] == [None, 3, 2] and [2] + s == [2, None, 3]
    assert s.concatenate(tf.TensorShape(None)).rank is None
    assert tf.TensorShape([1, 2]).most_specific_compatible_shape([1, 3]) == [1, None]
    assert tf.TensorShape([1, 2]).most_specific_common_supertype(tf.TensorShape([1])) == tf.TensorShape(None)
    assert s.num_elements() is None and tf.TensorShape([2, 3]).num_elements() == 6
    assert s[1:] == [3] and s[-1] == 3 and tf.TensorShape(None)[0] is None
    assert bool(tf.TensorShape([])) and not bool(tf.TensorShape(None))
    assert tf.TensorShape(None).with_rank(2) == [None, None] and s.with_rank(2) is s
    assert s.with_rank_at_least(1) is s and s.with_rank_at_most(2) is s
    with pytest.raises(ValueError, match=r"Shape \(None, 3\) must have rank 3"):
        s.with_rank(3)
    with pytest.raises(ValueError, match=r"must have rank at least 3"):
        s.with_rank_at_least(3)
    with pytest.raises(ValueError, match=r"Shapes \(None, 3\) and \(2, 4\) are incompatible"):
        s.assert_is_compatible_with([2, 4])
    with pytest.raises(ValueError, match=r"must have the same rank"):
        s.assert_same_rank([1])
    with pytest.raises(ValueError, match=r"is not fully defined"):
        s.assert_is_fully_defined()
    s.assert_has_rank(2)
    with pytest.raises(ValueError, match=r"as_list\(\) is not defined on an unknown TensorShape"):
        tf.TensorShape(None).as_list()
    with pytest.raises(ValueError, match="Cannot take the length of shape with unknown rank"):
        len(tf.TensorShape(None))
    assert str(tf.TensorShape(None)) == "<unknown>" and str(tf.TensorShape([4])) == "(4,)"
    assert tf.TensorShape(None)[1:3] == [None, None] and tf.TensorShape(None)[1:].rank is None
    assert tf.compat.dimension_value(s[0]) is None and tf.compat.dimension_value(s[1]) == 3


def test_tensor_spec_api():
    spec = tf.TensorSpec([2, 3])
    assert spec.is_subtype_of(tf.TensorSpec([None, 3])) and not tf.TensorSpec([None, 3]).is_subtype_of(spec)
    assert not spec.is_subtype_of(tf.TensorSpec([2, 3], tf.int32))
    assert spec.most_specific_common_supertype([tf.TensorSpec([4, 3])]) == tf.TensorSpec([None, 3])
    assert spec.most_specific_common_supertype([tf.TensorSpec([4])]) == tf.TensorSpec(None)
    assert spec.most_specific_common_supertype([tf.TensorSpec([2, 3], tf.int32)]) is None
    assert spec.is_compatible_with(tf.ones([2, 3])) and not spec.is_compatible_with(tf.ones([3, 3]))


def test_shapes_of_several_tensors_and_none_in_a_shape_list():
    def f(x):
        return tf.shape_n([x, x[0]])

    _same(tf.function(f, input_signature=[tf.TensorSpec([None, 3])])(tf.ones([2, 3])), [tf.constant([2, 3]), tf.constant([3])])
    with pytest.raises(ValueError, match="None values not supported"):
        # x.shape[0] is None in the trace: the runtime size is tf.shape(x)[0]
        tf.function(lambda x: tf.zeros([x.shape[0], 3]), input_signature=[tf.TensorSpec([None, 3])])(tf.ones([2, 3]))


# ------------------------------------------------------------ retracing
def test_retracing_follows_shapes_dtypes_and_python_values():
    traces = []

    @tf.function
    def f(x):
        traces.append(x.shape if hasattr(x, "shape") else x)
        return x * 2

    for a in (tf.ones([2]), tf.ones([3]), tf.ones([3]), 2, 3, 3, tf.ones([2], tf.int32)):
        f(a)
    assert f.experimental_get_tracing_count() == 5 and len(traces) == 5

    relaxed = []

    @tf.function(reduce_retracing=True)
    def g(x):
        relaxed.append(x.shape)
        return x * 2

    for n in (2, 3, 4, 5):
        assert g(tf.ones([n])).shape == (n,)
    # the second shape generalizes the trace to (None,), which serves every later length
    assert relaxed == [tf.TensorShape([2]), tf.TensorShape([None])] and g.experimental_get_tracing_count() == 2


def test_concrete_function_with_a_none_dimension():
    @tf.function
    def h(x):
        return tf.reduce_sum(x)

    cf = h.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    assert cf(tf.ones([2, 3])).numpy() == 6.0 and cf(tf.ones([4, 3])).numpy() == 12.0
    assert h(tf.ones([5, 3])).numpy() == 15.0 and h.experimental_get_tracing_count() == 1
    with pytest.raises((TypeError, ValueError, tf.errors.InvalidArgumentError), match=r"\(2, 4\)"):
        cf(tf.ones([2, 4]))


def test_last_smaller_batch_has_a_none_dimension():
    ds = tf.data.Dataset.range(10).batch(4)
    assert ds.element_spec.shape == [None]
    assert tf.data.Dataset.range(10).batch(4, drop_remainder=True).element_spec.shape == [4]

    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for b in ds:
            seen.append(b.shape.as_list())
            s += tf.reduce_sum(b)
        return s

    seen.clear()
    assert total(ds).numpy() == 45 and seen == [[None]]


# ------------------------------------------------------------ shapes that do not fit, found when the graph runs
def test_runtime_shape_mismatches_say_what_tensorflow_says():
    sig1, sig2 = [tf.TensorSpec([None])], [tf.TensorSpec([None]), tf.TensorSpec([None])]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs\. \[3\]") as e:
        tf.function(lambda x, y: x + y, input_signature=sig2)(tf.ones([2]), tf.ones([3]))
    assert "test_dynamic_shapes.py:" in str(e.value)  # the node's line in the user's code
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs\. \[3\] \[Op:AddV2\]"):
        tf.ones([2]) + tf.ones([3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input to reshape is a tensor with 6 values, but the requested shape has 8"):
        tf.function(lambda x: tf.reshape(x, [4, 2]), input_signature=sig1)(tf.ones([6]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input to reshape is a tensor with 6 values, but the requested shape requires a "
                             "multiple of 4"):
        tf.function(lambda x: tf.reshape(x, [-1, 4]), input_signature=sig1)(tf.ones([6]))
    # statically known: shape inference's ValueError while tracing; eagerly the kernel's InvalidArgumentError
    with pytest.raises(ValueError, match="Cannot reshape a tensor with 6 elements to shape"):
        tf.function(lambda x: tf.reshape(x, [4, 2]), input_signature=[tf.TensorSpec([6])])(tf.ones([6]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"slice index 5 of dimension 0 out of bounds\."):
        tf.function(lambda x, i: x[i], input_signature=[tf.TensorSpec([None]), tf.TensorSpec([], tf.int32)])(
            tf.ones([3]), tf.constant(5))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"slice index 5 of dimension 0 out of bounds\."):
        tf.ones([3])[5]
    for shape, text in (([4, 2], "Cannot reshape a tensor with 6 elements"), ([-1, 4], "evenly divisible by 4 but is 6")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=text) as e:
            tf.reshape(tf.range(6), shape)
        assert isinstance(e.value, ValueError)

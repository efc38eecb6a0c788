"""Gradient functions of the ops, written with the runtime's own ops.

A gradient function takes the op (its `inputs`, `outputs`, `attrs`) and the
gradients of its outputs (tensors) and returns one gradient per input (a
tensor or None). Because it is built from ops, the same code runs eagerly,
adds the backward computation to the graph being traced, and is itself
recorded by an outer tape (second derivatives).

`register_gradient(name)` registers a gradient; `not_differentiable(name)`
says an op has none (integer/bool results, random numbers...). An op that is
neither has no gradient: a tape that needs one raises LookupError. A
registration may carry a `sample` (a function returning the arguments of a
call that exercises the op) so the gradient checker tests it.

The helper ops defined here (SumToShapeOf, BroadcastToShapeOf, ...) have
gradients too, so gradients of gradients work.
"""
from __future__ import annotations

import numpy as np

from . import dtypes as dt
from . import ops
from .shapes import TensorShape

__all__ = ["GRADS", "SAMPLES", "register_gradient", "not_differentiable", "NONDIFF"]

GRADS: dict = {}  # op name -> gradient function (None: not differentiable)
SAMPLES: dict = {}  # op name -> sample builder for the gradient checker
NONDIFF = None


def register_gradient(name, sample=None):
    def deco(fn):
        GRADS[name] = fn
        if sample is not None:
            SAMPLES[name] = sample
        return fn

    return deco


def not_differentiable(*names):
    for n in names:
        GRADS[n] = NONDIFF


def _is_diff(dtype):
    return dtype.is_floating or dtype is dt.variant


# ------------------------------------------------------------- helper ops
def _unbroadcast(g, shape):
    g = np.asarray(g)
    shape = tuple(shape)
    if g.shape == shape:
        return g
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g.reshape(shape)


def _like_infer(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


SUM_TO = ops.define("SumToShapeOf", _like_infer, lambda g, like: _unbroadcast(g, np.shape(like)))


def _bcast_kernel(g, like):
    shape = np.shape(like)
    if np.shape(g) == shape:
        return g
    return np.array(np.broadcast_to(g, shape))


BCAST_TO = ops.define("BroadcastToShapeOf", _like_infer, _bcast_kernel)
RESHAPE_LIKE = ops.define("ReshapeLike", _like_infer, lambda g, like: np.reshape(g, np.shape(like)))
STOP_GRADIENT = ops.define("StopGradient", ops._inf_same, expr="{0}")
PREVENT_GRADIENT = ops.define("PreventGradient", ops._inf_same, lambda x, message: x)


def sum_to(g, x):
    """`g` summed down to the shape of `x` (undoing broadcasting)."""
    gs, xs = g.shape, x.shape
    if gs.dims is not None and xs.dims is not None and gs.dims == xs.dims and gs.is_fully_defined():
        return g
    if gs.is_fully_defined() and xs.is_fully_defined():
        gd, xd = gs.dims, xs.dims
        lead = len(gd) - len(xd)
        axes = list(range(lead)) + [lead + i for i, d in enumerate(xd) if d == 1 and gd[lead + i] != 1]
        out = g
        if axes == list(range(lead)):  # only leading axes: no reshape needed
            return ops.reduce_sum(out, axis=axes)
        if axes:
            out = ops.reduce_sum(out, axis=axes, keepdims=True)
        if tuple(out.shape.dims) != tuple(xd):
            out = ops.reshape(out, list(xd))
        return out
    return ops.apply1(SUM_TO, [g, x])


def bcast_to(g, x):
    if g.shape.is_fully_defined() and x.shape.is_fully_defined() and g.shape.dims == x.shape.dims:
        return g
    return ops.apply1(BCAST_TO, [g, x])


def reshape_like(g, x):
    if x.shape.is_fully_defined():
        if g.shape.dims == x.shape.dims:
            return g
        return ops.reshape(g, list(x.shape.dims))
    return ops.apply1(RESHAPE_LIKE, [g, x])


@register_gradient("SumToShapeOf")
def _(op, d):
    return [bcast_to(d[0], op.inputs[0]), None]


@register_gradient("BroadcastToShapeOf")
def _(op, d):
    return [sum_to(d[0], op.inputs[0]), None]


@register_gradient("ReshapeLike")
def _(op, d):
    return [reshape_like(d[0], op.inputs[0]), None]


not_differentiable("StopGradient")


@register_gradient("PreventGradient")
def _(op, d):
    raise LookupError(op.attrs["message"] or "Gradient explicitly disabled (tf.raw_ops.PreventGradient)")


# -------------------------------------------------------------- samples
# each sample returns (function of float tensors, list of numpy inputs)
def _r(*shape, lo=-1.0, hi=1.0, seed=0):
    rng = np.random.default_rng(seed + sum(shape) * 7 + len(shape))
    return rng.uniform(lo, hi, size=shape)


def _pos(*shape, seed=0):
    return _r(*shape, lo=0.5, hi=2.0, seed=seed)


def _binary_sample(fn, a=None, b=None):
    return lambda: (fn, [_r(2, 3) if a is None else a, _r(3, seed=1) if b is None else b])


def _unary_sample(fn, x=None):
    return lambda: (fn, [_r(2, 3) if x is None else x])


# ------------------------------------------------------------ arithmetic
@register_gradient("AddV2", _binary_sample(lambda x, y: ops.add(x, y)))
def _(op, d):
    x, y = op.inputs
    return [sum_to(d[0], x), sum_to(d[0], y)]


@register_gradient("Sub", _binary_sample(lambda x, y: ops.subtract(x, y)))
def _(op, d):
    x, y = op.inputs
    return [sum_to(d[0], x), sum_to(ops.negative(d[0]), y)]


@register_gradient("Mul", _binary_sample(lambda x, y: ops.multiply(x, y)))
def _(op, d):
    x, y = op.inputs
    return [sum_to(ops.multiply(d[0], y), x), sum_to(ops.multiply(d[0], x), y)]


@register_gradient("RealDiv", _binary_sample(lambda x, y: ops.truediv(x, y), b=_pos(3, seed=1)))
def _(op, d):
    x, y = op.inputs
    if not x.dtype.is_floating:
        return [None, None]
    g = d[0]
    return [sum_to(ops.truediv(g, y), x), sum_to(ops.negative(ops.truediv(ops.multiply(g, x), ops.multiply(y, y))), y)]


@register_gradient("FloorMod", _binary_sample(lambda x, y: ops.floormod(x, y), a=_pos(2, 3) * 3.1, b=_pos(3, seed=1)))
def _(op, d):
    x, y = op.inputs
    if not x.dtype.is_floating:
        return [None, None]
    g = d[0]
    return [sum_to(g, x), sum_to(ops.negative(ops.multiply(g, ops.floordiv(x, y))), y)]


not_differentiable("FloorDiv")


def _pow_grad(op, d):
    x, y = op.inputs
    if not x.dtype.is_floating:
        return [None, None]
    z = op.outputs[0]
    g = d[0]
    gx = ops.multiply(g, ops.multiply(y, ops.pow(x, ops.subtract(y, 1))))
    pos = ops.greater(x, 0)
    safe = ops.where(pos, x, ops.ones_like(x))
    logx = ops.where(pos, ops.log(safe), ops.zeros_like(x))
    gy = ops.multiply(g, ops.multiply(z, logx))
    return [sum_to(gx, x), sum_to(gy, y)]


register_gradient("Pow", _binary_sample(lambda x, y: ops.pow(x, y), a=_pos(2, 3), b=_r(3, seed=1)))(_pow_grad)


def _minmax_grad(cmp):
    def grad(op, d):
        x, y = op.inputs
        if not x.dtype.is_floating:
            return [None, None]
        g = d[0]
        mask = cmp(x, y)
        z = ops.zeros_like(g)
        return [sum_to(ops.where(mask, g, z), x), sum_to(ops.where(mask, z, g), y)]

    return grad


register_gradient("Maximum", _binary_sample(lambda x, y: ops.maximum(x, y)))(_minmax_grad(ops.greater_equal))
register_gradient("Minimum", _binary_sample(lambda x, y: ops.minimum(x, y)))(_minmax_grad(ops.less_equal))


@register_gradient("SquaredDifference", _binary_sample(lambda x, y: ops.squared_difference(x, y)))
def _(op, d):
    x, y = op.inputs
    g = ops.multiply(ops.multiply(d[0], 2), ops.subtract(x, y))
    return [sum_to(g, x), sum_to(ops.negative(g), y)]


not_differentiable(
    "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr",
    "LogicalNot", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "Sign", "Floor", "Ceil", "Round",
    "ArgMax", "ArgMin", "Shape", "Size", "Rank", "Range", "Zeros", "Ones", "ZerosLike", "OnesLike", "Eye",
    "OneHot", "Where", "StringJoin", "AsString", "RandomUniform", "RandomStandardNormal", "Const",
    "Any", "All", "AnyDyn", "AllDyn", "Assert", "PrintV2", "AssignVariableOp", "AssignAddVariableOp",
    "AssignSubVariableOp", "VarHandleInit", "ReadVariableOp", "IteratorGetNext",
    "TensorArrayV3", "TensorArraySizeV3",
)


# ------------------------------------------------------------------ unary
def _unary(name, fn, x=None):
    def deco(g):
        register_gradient(name, _unary_sample(fn, x))(g)
        return g

    return deco


@_unary("Neg", ops.negative)
def _(op, d):
    return [ops.negative(d[0])]


@_unary("Abs", ops.abs)
def _(op, d):
    return [ops.multiply(d[0], ops.sign(op.inputs[0]))]


@_unary("Square", ops.square)
def _(op, d):
    return [ops.multiply(d[0], ops.multiply(op.inputs[0], 2))]


@_unary("Tanh", ops.tanh)
def _(op, d):
    y = op.outputs[0]
    return [ops.multiply(d[0], ops.subtract(1, ops.multiply(y, y)))]


@_unary("Sigmoid", ops.sigmoid)
def _(op, d):
    y = op.outputs[0]
    return [ops.multiply(d[0], ops.multiply(y, ops.subtract(1, y)))]


@_unary("Exp", ops.exp)
def _(op, d):
    return [ops.multiply(d[0], op.outputs[0])]


@_unary("Log", ops.log, _pos(2, 3))
def _(op, d):
    return [ops.truediv(d[0], op.inputs[0])]


@_unary("Sqrt", ops.sqrt, _pos(2, 3))
def _(op, d):
    return [ops.truediv(ops.multiply(d[0], 0.5), op.outputs[0])]


@_unary("Rsqrt", ops.rsqrt, _pos(2, 3))
def _(op, d):
    y = op.outputs[0]
    return [ops.multiply(ops.multiply(d[0], -0.5), ops.multiply(y, ops.multiply(y, y)))]


@_unary("Reciprocal", ops.reciprocal, _pos(2, 3))
def _(op, d):
    y = op.outputs[0]
    return [ops.negative(ops.multiply(d[0], ops.multiply(y, y)))]


@_unary("Sin", ops.sin)
def _(op, d):
    return [ops.multiply(d[0], ops.cos(op.inputs[0]))]


@_unary("Cos", ops.cos)
def _(op, d):
    return [ops.negative(ops.multiply(d[0], ops.sin(op.inputs[0])))]


@_unary("Relu", ops.relu)
def _(op, d):
    x = op.inputs[0]
    # g * (x > 0): one comparison and one product (numpy's bool->float cast is
    # nearly free); a where over zeros_like costs about five times as much
    return [ops.multiply(d[0], ops.cast(ops.greater(x, 0), d[0].dtype))]


@_unary("Softplus", ops.softplus)
def _(op, d):
    return [ops.multiply(d[0], ops.sigmoid(op.inputs[0]))]


@_unary("Identity", ops.identity)
def _(op, d):
    return [d[0]]


@_unary("EnsureShape", lambda x: ops.ensure_shape(x, [2, 3]))
def _(op, d):
    return [d[0]]


@register_gradient("Dropout")
def _(op, d):
    y = op.outputs[0]
    rate = op.attrs["rate"]
    scale = 0.0 if rate >= 1 else 1.0 / (1.0 - rate)
    mask = ops.multiply(ops.cast(ops.not_equal(y, 0), y.dtype), scale)
    return [ops.multiply(d[0], mask)]


@register_gradient("Cast", lambda: (lambda x: ops.cast(ops.cast(x, dt.float32), dt.float64), [_r(2, 3)],
                                    {"delta": 1e-2, "atol": 1e-4}))
def _(op, d):
    src = op.inputs[0].dtype
    if not src.is_floating or not op.outputs[0].dtype.is_floating:
        return [None]
    return [ops.cast(d[0], src)]


# ----------------------------------------------------------------- matmul
def _mm(a, b, ta=False, tb=False):
    return ops.matmul(a, b, transpose_a=ta, transpose_b=tb)


@register_gradient("MatMul", lambda: (lambda a, b: ops.matmul(a, b), [_r(2, 3), _r(3, 4, seed=1)]))
def _(op, d):
    a, b = op.inputs
    g = d[0]
    ta, tb = op.attrs.get("transpose_a", False), op.attrs.get("transpose_b", False)
    if not ta and not tb:
        ga, gb = _mm(g, b, tb=True), _mm(a, g, ta=True)
    elif ta and not tb:
        ga, gb = _mm(b, g, tb=True), _mm(a, g)
    elif not ta and tb:
        ga, gb = _mm(g, b), _mm(g, a, ta=True)
    else:
        ga, gb = _mm(b, g, ta=True, tb=True), _mm(g, a, ta=True, tb=True)
    if (a.shape.rank or 0) > 2 or (b.shape.rank or 0) > 2 or a.shape.rank is None or b.shape.rank is None:
        ga, gb = sum_to(ga, a), sum_to(gb, b)
    return [ga, gb]


# -------------------------------------------------------------- reductions
def _keep_shape(g, x, axis, keepdims):
    """The reduced gradient `g` reshaped to the input's rank (size-1 axes)."""
    if keepdims or axis is None:
        return g
    if x.shape.is_fully_defined():
        dims = [1 if i in axis else dd for i, dd in enumerate(x.shape.dims)]
        return ops.reshape(g, dims)
    for a in sorted(axis):
        g = ops.expand_dims(g, a)
    return g


def _norm(axis, x):
    if axis is None or x.shape.rank in (None, 0):
        return None if x.shape.rank == 0 else axis
    return axis


@register_gradient("Sum", lambda: (lambda x: ops.reduce_sum(x, axis=1), [_r(2, 3)]))
def _(op, d):
    x = op.inputs[0]
    if not x.dtype.is_floating:
        return [None]
    axis = _norm(op.attrs["axis"], x)
    return [bcast_to(_keep_shape(d[0], x, axis, op.attrs["keepdims"]), x)]


@register_gradient("Mean", lambda: (lambda x: ops.reduce_mean(x, axis=0), [_r(2, 3)]))
def _(op, d):
    x = op.inputs[0]
    if not x.dtype.is_floating:
        return [None]
    y = op.outputs[0]
    axis = _norm(op.attrs["axis"], x)
    g = bcast_to(_keep_shape(d[0], x, axis, op.attrs["keepdims"]), x)
    if x.shape.is_fully_defined():
        dims = x.shape.dims
        n = int(np.prod(dims)) if axis is None else int(np.prod([dims[a] for a in axis]))
        return [ops.truediv(g, max(n, 1))]
    n = ops.truediv(ops.cast(ops.size(x), x.dtype), ops.maximum(ops.cast(ops.size(y), x.dtype), 1))
    return [ops.truediv(g, ops.maximum(n, 1))]


def _minmax_reduce_grad(op, d):
    x = op.inputs[0]
    if not x.dtype.is_floating:
        return [None]
    y = op.outputs[0]
    axis = _norm(op.attrs["axis"], x)
    keep = op.attrs["keepdims"]
    yb = bcast_to(_keep_shape(y, x, axis, keep), x)
    mask = ops.cast(ops.equal(x, yb), x.dtype)
    count = ops.reduce_sum(mask, axis=axis, keepdims=True)
    g = bcast_to(_keep_shape(d[0], x, axis, keep), x)
    return [ops.truediv(ops.multiply(g, mask), count)]


register_gradient("Max", lambda: (lambda x: ops.reduce_max(x, axis=1), [_r(2, 3)]))(_minmax_reduce_grad)
register_gradient("Min", lambda: (lambda x: ops.reduce_min(x), [_r(2, 3)]))(_minmax_reduce_grad)


def _prod_grad_kernel(x, dy, axis, keepdims):
    x = np.asarray(x)
    nd = x.ndim
    if nd == 0:
        return (np.asarray(dy) * np.ones_like(x)).astype(x.dtype)
    axes = tuple(range(nd)) if axis is None else tuple(axis)
    other = [i for i in range(nd) if i not in axes]
    perm = other + list(axes)
    xt = np.transpose(x, perm)
    shp = xt.shape
    flat = xt.reshape(shp[: len(other)] + (-1,))
    one = np.ones_like(flat[..., :1])
    left = np.cumprod(np.concatenate([one, flat[..., :-1]], -1), -1)
    right = np.flip(np.cumprod(np.concatenate([one, np.flip(flat, -1)[..., :-1]], -1), -1), -1)
    pe = np.transpose((left * right).reshape(shp), np.argsort(perm))
    dy = np.asarray(dy)
    if not keepdims:
        dy = dy.reshape([1 if i in axes else s for i, s in enumerate(x.shape)])
    return (pe * dy).astype(x.dtype)


PROD_GRAD = ops.define("ProdGrad", lambda i, a: [(i[0].dtype, i[0].shape)], _prod_grad_kernel)


@register_gradient("Prod", lambda: (lambda x: ops.reduce_prod(x, axis=1), [_r(2, 3)]))
def _(op, d):
    x = op.inputs[0]
    if not x.dtype.is_floating:
        return [None]
    return [ops.apply1(PROD_GRAD, [x, d[0]], {"axis": _norm(op.attrs["axis"], x), "keepdims": op.attrs["keepdims"]})]


def _dyn_axis_grad(kind):
    def grad(op, d):
        x, axis = op.inputs
        if not x.dtype.is_floating:
            return [None, None]
        y = op.outputs[0]
        keep = op.attrs["keepdims"]
        g = d[0]
        if not keep:
            g = ops.apply1(EXPAND_AXES, [g, axis, x])
        gb = bcast_to(g, x)
        if kind == "sum":
            return [gb, None]
        if kind == "mean":
            n = ops.truediv(ops.cast(ops.size(x), x.dtype), ops.maximum(ops.cast(ops.size(y), x.dtype), 1))
            return [ops.truediv(gb, n), None]
        yk = y if keep else ops.apply1(EXPAND_AXES, [y, axis, x])
        mask = ops.cast(ops.equal(x, bcast_to(yk, x)), x.dtype)
        count = bcast_to(ops.apply1(EXPAND_AXES, [ops.apply1(ops.DYN_REDUCE["Sum"], [mask, axis], {"keepdims": False}), axis, x]), x)
        return [ops.truediv(ops.multiply(gb, mask), count), None]

    return grad


def _expand_axes_kernel(g, axis, like):
    nd = np.ndim(like)
    axes = sorted({int(a) % max(nd, 1) for a in np.atleast_1d(axis)})
    return np.reshape(g, [1 if i in axes else s for i, s in enumerate(np.shape(like))])


EXPAND_AXES = ops.define("ExpandReducedAxes", lambda i, a: [(i[0].dtype, TensorShape(None if i[2].shape.rank is None else [None] * i[2].shape.rank))],
                         _expand_axes_kernel)


@register_gradient("ExpandReducedAxes")
def _(op, d):
    return [reshape_like(d[0], op.inputs[0]), None, None]


if hasattr(ops, "DYN_REDUCE"):
    for _name, _kind in (("SumDyn", "sum"), ("MeanDyn", "mean"), ("MaxDyn", "mm"), ("MinDyn", "mm")):
        if _name in ops.REGISTRY:
            register_gradient(_name)(_dyn_axis_grad(_kind))


def _cumsum_rev_kernel(g, axis):
    g = np.asarray(g)
    return np.flip(np.cumsum(np.flip(g, axis), axis=axis, dtype=g.dtype), axis)


CUMSUM_REV = ops.define("CumsumReverse", ops._inf_same, _cumsum_rev_kernel)


@register_gradient("CumsumReverse")
def _(op, d):
    return [ops.apply1(ops.CUMSUM, [d[0]], {"axis": op.attrs["axis"]})]


@register_gradient("Cumsum", lambda: (lambda x: ops.apply1(ops.CUMSUM, [x], {"axis": 1}), [_r(2, 3)]))
def _(op, d):
    if not op.inputs[0].dtype.is_floating or set(op.attrs) != {"axis"}:
        if set(op.attrs) != {"axis"}:
            raise LookupError(f"No gradient defined for Cumsum with attributes {sorted(op.attrs)}")
        return [None]
    return [ops.apply1(CUMSUM_REV, [d[0]], {"axis": op.attrs["axis"]})]


# ------------------------------------------------------------------ where
@register_gradient("SelectV2", lambda: (lambda x, y: ops.where(ops.greater(x, 0.0), x, y), [_r(2, 3), _r(2, 3, seed=1)]))
def _(op, d):
    c, x, y = op.inputs
    g = d[0]
    z = ops.zeros_like(g)
    return [None, sum_to(ops.where(c, g, z), x), sum_to(ops.where(c, z, g), y)]


# ------------------------------------------------------------- shape ops
@register_gradient("Reshape", lambda: (lambda x: ops.reshape(x, [3, 2]), [_r(2, 3)]))
def _(op, d):
    return [reshape_like(d[0], op.inputs[0])] + [None] * (len(op.inputs) - 1)


@register_gradient("ExpandDims", lambda: (lambda x: ops.expand_dims(x, 1), [_r(2, 3)]))
def _(op, d):
    return [reshape_like(d[0], op.inputs[0])]


@register_gradient("Squeeze", lambda: (lambda x: ops.squeeze(x), [_r(2, 1, 3)]))
def _(op, d):
    return [reshape_like(d[0], op.inputs[0])]


@register_gradient("Transpose", lambda: (lambda x: ops.transpose(x, [2, 0, 1]), [_r(2, 3, 4)]))
def _(op, d):
    perm = op.attrs["perm"]
    if perm is None:
        return [ops.transpose(d[0])]
    return [ops.transpose(d[0], [int(p) for p in np.argsort(perm)])]


def _concat_grad_infer(inputs, attrs):
    return [(inputs[0].dtype, x.shape) for x in inputs[1:]]


def _concat_grad_kernel(g, *xs, axis):
    sizes = [np.shape(x)[axis] for x in xs]
    parts = np.split(np.asarray(g), np.cumsum(sizes)[:-1], axis=axis)
    return parts[0] if len(parts) == 1 else tuple(parts)


CONCAT_GRAD = ops.define("ConcatGrad", _concat_grad_infer, _concat_grad_kernel)


@register_gradient("ConcatGrad")
def _(op, d):
    return [ops.apply1(ops.CONCAT, list(d), {"axis": op.attrs["axis"]})] + [None] * (len(op.inputs) - 1)


@register_gradient("ConcatV2", lambda: (lambda x, y: ops.concat([x, y], 1), [_r(2, 3), _r(2, 2, seed=1)]))
def _(op, d):
    xs = op.inputs
    rank = xs[0].shape.rank
    axis = op.attrs["axis"] % rank if rank else op.attrs["axis"]
    return ops.apply(CONCAT_GRAD, [d[0]] + list(xs), {"axis": axis})


@register_gradient("Pack", lambda: (lambda x, y: ops.stack([x, y], 1), [_r(2, 3), _r(2, 3, seed=1)]))
def _(op, d):
    n = len(op.inputs)
    if n == 1:
        return [reshape_like(d[0], op.inputs[0])]
    return list(ops.apply(ops.UNPACK, [d[0]], {"axis": op.attrs["axis"]}))


@register_gradient("Unpack", lambda: (lambda x: ops.unstack(x, axis=1)[1], [_r(2, 3)]))
def _(op, d):
    return [ops.apply1(ops.PACK, list(d), {"axis": op.attrs["axis"]})]


def _tile_grad_kernel(g, x, multiples):
    shape = np.shape(x)
    g = np.asarray(g)
    m = tuple(np.atleast_1d(multiples).tolist())
    g = g.reshape([v for s, k in zip(shape, m) for v in (k, s)])
    return g.sum(axis=tuple(range(0, 2 * len(shape), 2)))


TILE_GRAD = ops.define("TileGrad", lambda i, a: [(i[0].dtype, i[1].shape)], _tile_grad_kernel)


@register_gradient("TileGrad")
def _(op, d):
    return [ops.apply1(ops.TILE, [d[0]], {"multiples": op.attrs["multiples"]}), None]


@register_gradient("Tile", lambda: (lambda x: ops.tile(x, [2, 3]), [_r(2, 3)]))
def _(op, d):
    if len(op.inputs) > 1:
        m = op.inputs[1]
        c = m.const if hasattr(m, "const") else getattr(m, "_value", None)
        if c is None:
            raise LookupError("the gradient of tf.tile needs multiples known while tracing")
        mult = tuple(int(v) for v in np.atleast_1d(c))
        return [ops.apply1(TILE_GRAD, [d[0], op.inputs[0]], {"multiples": mult}), None]
    return [ops.apply1(TILE_GRAD, [d[0], op.inputs[0]], {"multiples": tuple(op.attrs["multiples"])})]


def _gather_grad_kernel(g, idx, p, axis):
    p = np.asarray(p)
    z = np.zeros_like(p)
    idx = np.asarray(idx)
    g = np.asarray(g)
    zm = np.moveaxis(z, axis, 0)
    if idx.ndim:
        gm = np.moveaxis(g, list(range(axis, axis + idx.ndim)), list(range(idx.ndim)))
    else:
        gm = g
    np.add.at(zm, idx, gm)
    return z


GATHER_GRAD = ops.define("GatherGrad", lambda i, a: [(i[0].dtype, i[2].shape)], _gather_grad_kernel)


@register_gradient("GatherGrad")
def _(op, d):
    return [ops.apply1(ops.GATHER, [d[0], op.inputs[1]], {"axis": op.attrs["axis"]}), None, None]


@register_gradient("GatherV2", lambda: (lambda x: ops.gather(x, ops.convert_to_tensor([2, 0, 2]), axis=1), [_r(2, 3)]))
def _(op, d):
    p, idx = op.inputs
    return [ops.apply1(GATHER_GRAD, [d[0], idx, p], {"axis": op.attrs["axis"]}), None]


def _slice_index(spec, rest):
    def src(s):
        if s is None:
            return None
        if s[0] == "c":
            return s[1]
        return int(rest[s[1] - 1])

    idx = []
    for it in spec:
        k = it[0]
        if k == "n":
            idx.append(None)
        elif k == "e":
            idx.append(Ellipsis)
        elif k == "i":
            idx.append(src(it[1]))
        else:
            idx.append(slice(*(src(s) for s in it[1:])))
    return tuple(idx)


def _slice_grad_kernel(g, x, *rest, spec):
    z = np.zeros_like(np.asarray(x))
    z[_slice_index(spec, rest)] = g
    return z


SLICE_GRAD = ops.define("StridedSliceGrad", lambda i, a: [(i[0].dtype, i[1].shape)], _slice_grad_kernel)


@register_gradient("StridedSliceGrad")
def _(op, d):
    return [ops.apply1(ops.STRIDED_SLICE, [d[0]] + list(op.inputs[2:]), {"spec": op.attrs["spec"]})] + [None] * (
        len(op.inputs) - 1)


@register_gradient("StridedSlice", lambda: (lambda x: x[1:, ::2], [_r(3, 4)]))
def _(op, d):
    x = op.inputs[0]
    return [ops.apply1(SLICE_GRAD, [d[0], x] + list(op.inputs[1:]), {"spec": op.attrs["spec"]})] + [None] * (
        len(op.inputs) - 1)


@register_gradient("Fill", lambda: (lambda v: ops.fill([2, 3], v), [np.float64(0.7)]))
def _(op, d):
    return [None, ops.reduce_sum(d[0])]


# --------------------------------------------------------- TensorArrays
# The gradient of a TensorArray handle is a list (a variant value) holding
# one gradient per element (None: zero); these ops never mutate their inputs.
_H = [(dt.variant, TensorShape([]))]


def _gl_add(a, b):
    n = max(len(a), len(b))
    out = []
    for i in range(n):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        out.append(y if x is None else x if y is None else x + y)
    return out


def _gl_at(g, i):
    i = int(i)
    out = [None] * (i + 1)
    out[i] = g
    return out


def _gl_pick(h, i, like):
    i = int(i)
    v = h[i] if 0 <= i < len(h) else None
    if v is None:
        return np.zeros_like(np.asarray(like))
    return v


def _gl_drop(h, i):
    i = int(i)
    if i >= len(h) or h[i] is None:
        return h
    out = list(h)
    out[i] = None
    return out


def _gl_unstack(g):
    return list(np.asarray(g))


def _gl_stack(h, like):
    z = np.zeros_like(np.asarray(like))
    for i, v in enumerate(h):
        if v is not None and i < len(z):
            z[i] = v
    return z


def _gl_split(g, h):
    g = np.asarray(g)
    out, start = [], 0
    for v in h:
        n = np.shape(v)[0] if v is not None else 0
        out.append(g[start:start + n])
        start += n
    return out


GL_EMPTY = ops.define("GradListEmpty", lambda i, a: _H, lambda: [], nofold=True)
GL_ADD = ops.define("GradListAdd", lambda i, a: _H, _gl_add, nofold=True)
GL_AT = ops.define("GradListAt", lambda i, a: _H, _gl_at, nofold=True)
GL_PICK = ops.define("GradListPick", lambda i, a: [(i[2].dtype, i[2].shape)], _gl_pick, nofold=True)
GL_DROP = ops.define("GradListDrop", lambda i, a: _H, _gl_drop, nofold=True)
GL_UNSTACK = ops.define("GradListUnstack", lambda i, a: _H, _gl_unstack, nofold=True)
GL_STACK = ops.define("GradListStack", lambda i, a: [(i[1].dtype, i[1].shape)], _gl_stack, nofold=True)
GL_SPLIT = ops.define("GradListSplit", lambda i, a: _H, _gl_split, nofold=True)

not_differentiable("GradListEmpty")


@register_gradient("GradListAdd")
def _(op, d):
    return [d[0], d[0]]


@register_gradient("GradListAt")
def _(op, d):
    return [ops.apply1(GL_PICK, [d[0], op.inputs[1], op.inputs[0]]), None]


@register_gradient("GradListPick")
def _(op, d):
    return [ops.apply1(GL_AT, [d[0], op.inputs[1]]), None, None]


@register_gradient("GradListDrop")
def _(op, d):
    return [ops.apply1(GL_DROP, [d[0], op.inputs[1]]), None]


@register_gradient("GradListUnstack")
def _(op, d):
    return [ops.apply1(GL_STACK, [d[0], op.inputs[0]])]


@register_gradient("GradListStack")
def _(op, d):
    return [ops.apply1(GL_UNSTACK, [d[0]]), None]


def empty_grad_list():
    return ops.apply1(GL_EMPTY, [])


def add_grads(a, b):
    if a.dtype is dt.variant:
        return ops.apply1(GL_ADD, [a, b])
    return ops.add(a, b)


@register_gradient("TensorArrayGatherV3")
def _(op, d):
    return [ops.apply1(GL_UNSTACK, [d[0]])]


@register_gradient("TensorArrayConcatV3")
def _(op, d):
    return [ops.apply1(GL_SPLIT, [d[0], op.inputs[0]])]


@register_gradient("TensorArrayReadV3")
def _(op, d):
    return [ops.apply1(GL_AT, [d[0], op.inputs[1]]), None]


@register_gradient("TensorArrayWriteV3")
def _(op, d):
    h, i, v = op.inputs
    dh = d[0]
    dv = ops.apply1(GL_PICK, [dh, i, v]) if v.dtype.is_floating else None
    return [ops.apply1(GL_DROP, [dh, i]), None, dv]


@register_gradient("TensorArrayScatterV3")
def _(op, d):
    v = op.inputs[0]
    if not v.dtype.is_floating:
        return [None]
    return [ops.apply1(GL_STACK, [d[0], v])]


@register_gradient("TensorListPopBack")
def _(op, d):
    return [d[0], None]


# ----------------------------------------------------- loop accumulators
# A differentiated staged loop pushes the values its body needs (the loop
# variables at the start of each iteration) on a stack; the backward loop
# reads them back in reverse order.
def _gs_push(acc, *vals):
    acc.append(vals)
    return acc


def _gs_get(acc, k, n, specs):
    v = acc[int(k)]
    return v if n > 1 else v[0]


def _gs_to_tensor(lst, like):
    z = np.zeros_like(np.asarray(like))
    for j, v in enumerate(reversed(lst)):  # pushed as 1-tuples, last iteration first
        if j < len(z):
            z[j] = v[0]
    return z


GS_NEW = ops.define("GradStackNew", lambda i, a: _H, lambda: [], nofold=True)
GS_PUSH = ops.define("GradStackPush", lambda i, a: _H, _gs_push, nofold=True)
GS_GET = ops.define("GradStackGet", lambda i, a: list(a["specs"]), _gs_get, nofold=True)
GS_SIZE = ops.define("GradStackSize", lambda i, a: [(dt.int32, TensorShape([]))], lambda acc: np.int32(len(acc)), nofold=True)
GS_TO_TENSOR = ops.define("GradStackToTensor", lambda i, a: [(i[1].dtype, i[1].shape)], _gs_to_tensor, nofold=True)

not_differentiable("GradStackNew", "GradStackSize")


def _no_second_order(op, d):
    raise NotImplementedError(
        "gradients of a staged loop's gradient (second derivatives through a tf.while_loop or a staged "
        "for/while loop) are not supported by this runtime")


for _n in ("GradStackPush", "GradStackGet", "GradStackToTensor"):
    register_gradient(_n)(_no_second_order)


# ------------------------------------------------------- custom gradients
def _custom_infer(inputs, attrs):
    return [(t.dtype, t.shape) for t in inputs[attrs["n_x"]:]]


def _custom_kernel(*vals, n_x, grad_fn, n_y):
    ys = vals[n_x:]
    return ys[0] if n_y == 1 else tuple(ys)


CUSTOM = ops.define("CustomGradient", _custom_infer, _custom_kernel, nofold=True)


# ------------------------------------- ops of ops_math / ops_array / ops_linalg
def _mod(name):
    import importlib

    return importlib.import_module(f"autograph_cli.runtime.{name}")


def _op(name):
    return ops.REGISTRY[name]


def _un(name, fn, x=None):
    return register_gradient(name, lambda: (lambda t: ops.apply1(_op(name), [t]), [_r(2, 3) if x is None else x]))(fn)


_un("Log1p", lambda op, d: [ops.truediv(d[0], ops.add(op.inputs[0], 1))], _pos(2, 3))
_un("Expm1", lambda op, d: [ops.multiply(d[0], ops.add(op.outputs[0], 1))])
_un("Tan", lambda op, d: [ops.multiply(d[0], ops.add(ops.square(op.outputs[0]), 1))])
_un("Asin", lambda op, d: [ops.truediv(d[0], ops.sqrt(ops.subtract(1, ops.square(op.inputs[0]))))], _r(2, 3) * 0.8)
_un("Acos", lambda op, d: [ops.negative(ops.truediv(d[0], ops.sqrt(ops.subtract(1, ops.square(op.inputs[0])))))],
    _r(2, 3) * 0.8)
_un("Atan", lambda op, d: [ops.truediv(d[0], ops.add(ops.square(op.inputs[0]), 1))])
_un("Sinh", lambda op, d: [ops.multiply(d[0], ops.apply1(_op("Cosh"), [op.inputs[0]]))])
_un("Cosh", lambda op, d: [ops.multiply(d[0], ops.apply1(_op("Sinh"), [op.inputs[0]]))])


@register_gradient("Atan2", _binary_sample(lambda y, x: ops.apply1(_op("Atan2"), [y, x]), b=_pos(3, seed=1)))
def _(op, d):
    y, x = op.inputs
    den = ops.add(ops.square(x), ops.square(y))
    return [sum_to(ops.truediv(ops.multiply(d[0], x), den), y),
            sum_to(ops.negative(ops.truediv(ops.multiply(d[0], y), den)), x)]


not_differentiable("IsNan", "IsInf", "IsFinite", "ArgSort", "Unique", "StatelessRandom", "TruncatedNormal",
                   "RandomShuffle", "RandomUniformLike")


@register_gradient("Cumulative", lambda: (lambda x: _mod("ops_array").cumulative("sum", x, 1, True, True), [_r(2, 4)]))
def _(op, d):
    a = op.attrs
    if a.get("kind") != "sum":
        raise LookupError(f"No gradient defined for cum{a.get('kind')} (op type: Cumulative)")
    return [ops.apply1(_op("Cumulative"), [d[0]], {"axis": a["axis"], "exclusive": a["exclusive"],
                                                    "reverse": not a["reverse"], "kind": "sum"})]


@register_gradient("ReverseV2", lambda: (lambda x: _mod("ops_array").reverse(x, [1]), [_r(2, 3)]))
def _(op, d):
    return [ops.apply1(_op("ReverseV2"), [d[0]], {"axis": op.attrs["axis"]})]


@register_gradient("SplitV", lambda: (lambda x: _mod("ops_array").split(x, [1, 2], axis=1)[1] * 2.0, [_r(2, 3)]))
def _(op, d):
    x = op.inputs[0]
    axis = op.attrs["axis"]
    return [ops.apply1(ops.CONCAT, list(d), {"axis": axis})] if len(d) > 1 else [reshape_like(d[0], x)]


def _static_value(t):
    c = t.const if isinstance(t, ops.SymbolicTensor) else getattr(t, "_value", None)
    return None if c is None else np.asarray(c)


@register_gradient("PadV2", lambda: (lambda x: _mod("ops_array").pad(x, [[1, 0], [2, 1]], constant_values=0.5),
                                     [_r(2, 3)]))
def _(op, d):
    x, p, v = op.inputs
    pv = _static_value(p)
    if pv is None:
        raise LookupError("the gradient of tf.pad needs paddings known while tracing")
    key = tuple(slice(int(lo), (-int(hi)) if int(hi) else None) for lo, hi in pv.reshape(-1, 2))
    dx = ops.getitem(d[0], key)
    dv = ops.subtract(ops.reduce_sum(d[0]), ops.reduce_sum(dx)) if v.dtype.is_floating else None
    return [dx, None, dv]


def _seg_sum_grad(op, d):
    data, ids = op.inputs[0], op.inputs[1]
    if not data.dtype.is_floating:
        return [None] * len(op.inputs)
    return [ops.gather(d[0], ids)] + [None] * (len(op.inputs) - 1)


register_gradient("SegmentSum", lambda: (lambda x: _mod("ops_array").segment_sum(x, ops.convert_to_tensor([0, 0, 1])),
                                         [_r(3, 2)]))(_seg_sum_grad)
register_gradient("UnsortedSegmentSum", lambda: (
    lambda x: _mod("ops_array").unsorted_segment_sum(x, ops.convert_to_tensor([2, 0, 2]), 3), [_r(3, 2)]))(_seg_sum_grad)


def _gather_nd_grad_kernel(g, idx, p):
    z = np.zeros_like(np.asarray(p))
    idx = np.asarray(idx)
    np.add.at(z, tuple(np.moveaxis(idx, -1, 0)), np.asarray(g))
    return z


GATHER_ND_GRAD = ops.define("GatherNdGrad", lambda i, a: [(i[0].dtype, i[2].shape)], _gather_nd_grad_kernel)


@register_gradient("GatherNdGrad")
def _(op, d):
    return [ops.apply1(_op("GatherNd"), [d[0], op.inputs[1]], {"batch_dims": 0}), None, None]


@register_gradient("GatherNd", lambda: (
    lambda x: _mod("ops_array").gather_nd(x, ops.convert_to_tensor([[0, 1], [2, 0], [0, 1]])), [_r(3, 2)]))
def _(op, d):
    p, idx = op.inputs
    if op.attrs.get("batch_dims"):
        raise LookupError("No gradient defined for gather_nd with batch_dims")
    return [ops.apply1(GATHER_ND_GRAD, [d[0], idx, p]), None]


def _t2(m):
    r = m.shape.rank
    perm = list(range(r - 2)) + [r - 1, r - 2] if r is not None else None
    return ops.transpose(m, perm)


@register_gradient("MatrixInverse", lambda: (lambda x: _mod("ops_linalg").inv(x),
                                             [np.eye(3) * 2 + _r(3, 3) * 0.3]))
def _(op, d):
    if op.attrs.get("adjoint"):
        raise LookupError("No gradient defined for MatrixInverse with adjoint=True")
    y = op.outputs[0]
    return [ops.negative(ops.matmul(ops.matmul(y, d[0], transpose_a=True), y, transpose_b=True))]


@register_gradient("MatrixDeterminant", lambda: (lambda x: _mod("ops_linalg").det(x),
                                                 [np.eye(3) * 2 + _r(3, 3) * 0.3]))
def _(op, d):
    x = op.inputs[0]
    y = op.outputs[0]
    inv_t = _t2(ops.apply1(_op("MatrixInverse"), [x]))
    s = ops.expand_dims(ops.expand_dims(ops.multiply(d[0], y), -1), -1)
    return [ops.multiply(s, inv_t)]


@register_gradient("MatrixDiagPart", lambda: (lambda x: _mod("ops_linalg").diag_part(x), [_r(3, 3)]))
def _(op, d):
    x = op.inputs[0]
    dims = x.shape.dims
    if dims is None or dims[-1] != dims[-2] or dims[-1] is None:
        raise LookupError("the gradient of diag_part needs square matrices of static shape")
    return [ops.apply1(_op("MatrixDiag"), [d[0]], {})]


@register_gradient("MatrixDiag", lambda: (lambda x: _mod("ops_linalg").diag(x), [_r(2, 3)]))
def _(op, d):
    return [ops.apply1(_op("MatrixDiagPart"), [d[0]])]

"""JAX lowerings of the runtime's ops, for ``function(jit_compile=True)``.

Each lowering is attached to its op's one declaration with
``register_lowering("jax", name)``; ``autograph_cli.jax._xla`` calls it as
``lowering(node, *input_values)`` while JAX traces the graph, and gets the
op's output (a tuple for several outputs). Three sources, in order:

- ops written as a numpy expression template (``AddV2``: ``{0} + {1}``) get
  the same expression evaluated with ``jax.numpy`` (so the two cannot
  disagree);
- ops whose numpy kernel only calls numpy functions jax.numpy also has
  (``_JNP_KERNELS``, each one covered by tests/test_jit_compile.py) run that
  kernel with ``np`` bound to ``jax.numpy``;
- the rest are written here by hand (indexing with traced indices, gathers,
  ops with a data-dependent check).

The walker casts every output to the dtype the graph says, so a lowering
never decides a dtype the numpy runtime would not.

Ops with no lowering (strings, ``py_function``, ops whose output shape
depends on the data such as ``Unique`` or ``boolean_mask``, random ops that
draw from the runtime's stateful generator) are refused at trace time;
``NOT_COMPILABLE`` says why for the ones with a known reason.
"""
from __future__ import annotations

import types

import jax
import numpy as np
import jax.numpy as jnp
from jax import lax

from autograph_cli.runtime import gradients, nn_ops
from autograph_cli.runtime.grad_ops import unbroadcast
from autograph_cli.runtime.ops import REGISTRY, register_lowering, slice_index

__all__ = ["NOT_COMPILABLE", "StaticShapeError", "lowering_for"]


class StaticShapeError(Exception):
    """An op needs a value that JAX only knows at run time (a shape, a slice
    bound): XLA cannot compile it."""


# why an op cannot be compiled, for the error message
NOT_COMPILABLE = {
    "EagerPyFunc": "tf.py_function runs Python code",
    "AsString": "XLA has no string tensors",
    "StringJoin": "XLA has no string tensors",
    **{name: "XLA has no string tensors" for name in (
        "StringLength", "StringUpper", "StringLower", "StringStrip", "StringToNumber", "RegexFullMatch",
        "RegexReplace", "Substr", "StringSplitV2")},
    "Unique": "its output shape depends on the data",
    "Where": "its output shape depends on the data",
    "BooleanMask": "its output shape depends on the data",
    "BooleanMaskGrad": "its output shape depends on the data",
    "RaggedTensorToTensor": "its output shape depends on the data",
    "DatasetFromTensors": "tf.data pipelines run on the host",
    "MakeIterator": "tf.data pipelines run on the host",
    "IteratorGetNext": "tf.data pipelines run on the host",
    "IteratorGetNextFromHandle": "tf.data pipelines run on the host",
    "ReduceDataset": "tf.data pipelines run on the host",
    "DatasetToSingleElement": "tf.data pipelines run on the host",
    "RandomUniform": "it draws from the runtime's stateful random generator",
    "RandomStandardNormal": "it draws from the runtime's stateful random generator",
    "TruncatedNormal": "it draws from the runtime's stateful random generator",
    "RandomShuffle": "it draws from the runtime's stateful random generator",
    "RandomUniformLike": "it draws from the runtime's stateful random generator",
    "Dropout": "it draws from the runtime's stateful random generator",
    "Multinomial": "it draws from the runtime's stateful random generator",
    "TensorListPopBack": "popping from a staged list changes its size at run time",
    **{
        name: "the gradient through a TensorArray is not compiled yet (record the tape outside the "
        "jit-compiled function: its gradients are the same)"
        for name in ("GradListEmpty", "GradListAdd", "GradListAt", "GradListPick", "GradListDrop",
                     "GradListUnstack", "GradListStack", "GradListSplit")
    },
}


class _JnpNamespace(types.ModuleType):
    """``np`` for a reused kernel: jax.numpy's functions, numpy's dtypes."""

    def __getattr__(self, name):
        return getattr(jnp, name)


_JNP = _JnpNamespace("np")


def _reuse_kernel(fn):
    g = dict(fn.__globals__)
    g["np"] = _JNP
    return types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, fn.__closure__)


def _from_expr(expr):
    nargs = 0
    while "{%d}" % nargs in expr:
        nargs += 1
    names = [f"a{i}" for i in range(nargs)]
    f = eval(f"lambda {', '.join(names)}: {expr.format(*names)}", {"np": _JNP})  # noqa: S307 - our op table's templates

    def lower(node, *args):
        return f(*args)

    return lower


def _from_kernel(fn):
    k = _reuse_kernel(fn)

    def lower(node, *args):
        return k(*args, **node.attrs)

    return lower


# ops whose numpy kernel is also correct over jax.numpy (tested one by one)
_JNP_KERNELS = (
    "Cast", "MatMul", "Sum", "Prod", "Max", "Min", "All", "Any", "Transpose", "ExpandDims",
    "Squeeze", "ConcatV2", "Pack", "Unpack", "Cumsum", "Einsum", "Softmax", "LogSoftmax", "Softplus",
    "Zeros", "ZerosLike", "OnesLike", "Ones", "ArgMax", "ArgMin", "Shape", "Size", "Rank",
    "BroadcastToShapeOf", "ReshapeLike", "ExpandReducedAxes", "TileGrad", "Erf", "ReverseV2",
    "CumsumReverse",
)


def lowering_for(op):
    """The op's JAX lowering (derived from its expression template or its
    kernel the first time it is asked for), or None."""
    low = op.lowerings.get("jax")
    if low is not None:
        return low
    d = op.emit.__defaults__
    if d and isinstance(d[0], str):
        low = _from_expr(d[0])
    elif op.name in _JNP_KERNELS:
        low = _from_kernel(op.kernel)
    if low is not None:
        op.lowerings["jax"] = low
    return low


def static_int(v, what):
    """A Python int from a value JAX must know while compiling."""
    if isinstance(v, jax.core.Tracer):
        raise StaticShapeError(f"{what} is known only at run time")
    return int(v)


def _static_tuple(v, what):
    if isinstance(v, jax.core.Tracer):
        raise StaticShapeError(f"{what} is known only at run time")
    return tuple(int(a) for a in np.atleast_1d(np.asarray(v)).tolist())


def _slice_index(spec, rest):
    """A StridedSlice spec's index; integer positions may be traced, slice
    bounds must be static."""
    return slice_index(spec, rest,
                       position=lambda v: v if isinstance(v, jax.core.Tracer) else int(v),
                       bound=lambda v: static_int(v, "a slice bound"))


@register_lowering("jax", "StridedSlice")
def _strided_slice(node, x, *rest):
    return jnp.asarray(x)[_slice_index(node.attrs["spec"], rest)]


@register_lowering("jax", "Reshape")
def _reshape(node, x, s=None):
    shape = node.attrs.get("shape") if s is None else s
    return jnp.reshape(x, _static_tuple(shape, "the target shape"))


@register_lowering("jax", "Fill")
def _fill(node, dims, v):
    return jnp.full(_static_tuple(dims, "the shape"), v)


@register_lowering("jax", "Tile")
def _tile(node, x, multiples=None):
    if multiples is None:
        multiples = node.attrs["multiples"]
    return jnp.tile(x, _static_tuple(multiples, "the multiples"))


@register_lowering("jax", "Range")
def _range(node, s, l, d):
    if any(isinstance(v, jax.core.Tracer) for v in (s, l, d)):
        raise StaticShapeError("the length of tf.range is known only at run time (its output shape depends on the data)")
    return np.arange(s, l, d, dtype=np.asarray(s).dtype)


@register_lowering("jax", "Mean")
def _mean(node, x):
    axis, keepdims = node.attrs["axis"], node.attrs["keepdims"]
    x = jnp.asarray(x)
    if axis is not None and x.ndim == 0:
        axis = None
    if x.dtype.kind in "iu":  # TensorFlow's integer mean truncates toward zero
        s = x.sum(axis=axis, keepdims=keepdims, dtype=jnp.int64)
        n = x.size if axis is None else int(np.prod([x.shape[a] for a in axis]))
        if n == 0:
            return jnp.zeros_like(s).astype(x.dtype)
        return (jnp.sign(s) * (jnp.abs(s) // n)).astype(x.dtype)
    return x.mean(axis=axis, keepdims=keepdims)


@register_lowering("jax", "GatherV2")
def _gather(node, p, idx):
    return jnp.take(p, idx, axis=node.attrs["axis"], mode="clip")


@register_lowering("jax", "EnsureShape", "StopGradient", "PreventGradient")
def _identity(node, x, *rest):
    return x


@register_lowering("jax", "SumToShapeOf")
def _sum_to(node, g, like):
    return unbroadcast(jnp.asarray(g), jnp.shape(like))


@register_lowering("jax", "OneHot")
def _one_hot(node, indices, *rest):
    a = node.attrs
    depth = a["depth"]
    dtype = a["dtype"].np
    idx = jnp.asarray(indices)
    hit = idx[..., None] == jnp.arange(depth)
    return jnp.where(hit, jnp.asarray(a["on"], dtype), jnp.asarray(a["off"], dtype))


@register_lowering("jax", "Eye")
def _eye(node, *args):
    a = node.attrs
    k = _reuse_kernel(REGISTRY["Eye"].kernel)
    return k(*args, **a)


def _log_softmax(x):
    s = x - x.max(axis=-1, keepdims=True)
    return s - jnp.log(jnp.exp(s).sum(axis=-1, keepdims=True))


@register_lowering("jax", "SoftmaxCrossEntropyWithLogits")
def _xent(node, logits, labels):
    lsm = _log_softmax(jnp.asarray(logits))
    loss = -(labels * lsm).sum(axis=-1)
    return loss, jnp.exp(lsm) * jnp.sum(labels, axis=-1, keepdims=True) - labels


@register_lowering("jax", "SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(node, logits, labels):
    # labels outside [0, k) are an error in the numpy runtime; XLA has no
    # run-time errors, so (as TensorFlow's XLA kernel) they give NaN
    lsm = _log_softmax(jnp.asarray(logits))
    k = lsm.shape[-1]
    labels = jnp.asarray(labels)
    bad = (labels < 0) | (labels >= k)
    safe = jnp.where(bad, 0, labels)
    picked = jnp.take_along_axis(lsm, safe[..., None], axis=-1)[..., 0]
    back = jnp.exp(lsm) - (safe[..., None] == jnp.arange(k)).astype(lsm.dtype)
    nan = jnp.asarray(jnp.nan, lsm.dtype)
    return jnp.where(bad, nan, -picked), jnp.where(bad[..., None], nan, back)


@register_lowering("jax", "ConcatGrad")
def _concat_grad(node, g, *xs):
    axis = node.attrs["axis"]
    sizes = [jnp.shape(x)[axis] for x in xs]
    parts = jnp.split(jnp.asarray(g), np.cumsum(sizes)[:-1].tolist(), axis=axis)
    return parts[0] if len(parts) == 1 else tuple(parts)


@register_lowering("jax", "ArgSort")
def _argsort(node, x):
    axis, descending = node.attrs["axis"], node.attrs["descending"]
    x = jnp.asarray(x)
    if not descending:
        return jnp.argsort(x, axis=axis, stable=True).astype(jnp.int32)
    n = x.shape[axis]
    idx = jnp.argsort(jnp.flip(x, axis), axis=axis, stable=True)  # ties keep their order
    return ((n - 1) - jnp.flip(idx, axis)).astype(jnp.int32)


@register_lowering("jax", "TakeAlongAxis")
def _take_along(node, x, idx):
    return jnp.take_along_axis(jnp.asarray(x), jnp.asarray(idx), node.attrs["axis"])


@register_lowering("jax", "ScatterAlongAxis")
def _scatter_along(node, g, idx, like):
    g = jnp.asarray(g)
    z = jnp.zeros(jnp.shape(like), g.dtype)
    idx = jnp.asarray(idx)
    where = list(np.indices(idx.shape, sparse=True))
    where[node.attrs["axis"] % max(z.ndim, 1)] = idx
    return z.at[tuple(where)].add(g)  # repeated indices accumulate


def _cum(x, axis, exclusive, reverse, kind):
    x = jnp.asarray(x)
    if reverse:
        x = jnp.flip(x, axis)
    fn = jnp.cumsum if kind == "sum" else jnp.cumprod
    out = fn(x, axis=axis, dtype=x.dtype)
    if exclusive:
        first = lax.slice_in_dim(x, 0, 1, axis=axis)
        first = jnp.zeros_like(first) if kind == "sum" else jnp.ones_like(first)
        out = jnp.concatenate([first, lax.slice_in_dim(out, 0, x.shape[axis] - 1, axis=axis)], axis)
    if reverse:
        out = jnp.flip(out, axis)
    return out


@register_lowering("jax", "Cumulative")
def _cumulative(node, x):
    return _cum(x, **node.attrs)


@register_lowering("jax", "Cumprod")
def _cumprod(node, x):
    return _cum(x, node.attrs["axis"], node.attrs["exclusive"], node.attrs["reverse"], "prod")


@register_lowering("jax", "ProdGrad")
def _prod_grad(node, x, dy):
    # JAX's own gradient of a product (exclusive products: exact with zeros)
    x = jnp.asarray(x)
    axis = node.attrs["axis"]
    axis = None if (axis is None or x.ndim == 0) else tuple(axis)
    out, vjp = jax.vjp(lambda x_: jnp.prod(x_, axis=axis, keepdims=node.attrs["keepdims"]), x)
    return vjp(jnp.broadcast_to(jnp.asarray(dy, x.dtype), out.shape))[0]


@register_lowering("jax", "CustomGradient")
def _custom_gradient(node, *vals):
    # forward: the function's outputs pass through (its gradient function was
    # traced into the graph where a tape asked for it)
    ys = vals[node.attrs["n_x"]:]
    return ys[0] if node.attrs["n_y"] == 1 else tuple(ys)


@register_lowering("jax", "TopKV2")
def _top_k(node, x, k=None):
    k = static_int(node.attrs["k"] if k is None else k, "k")
    vals, idx = lax.top_k(jnp.asarray(x), k)  # ties: the lower index first, as TensorFlow's
    return vals, idx.astype(jnp.int32)


@register_lowering("jax", "BiasAddGrad")
def _bias_add_grad(node, g):
    g = jnp.asarray(g)
    return g.reshape(-1, g.shape[-1]).sum(axis=0)


@register_lowering("jax", "Sort")
def _sort(node, x):
    out = jnp.sort(jnp.asarray(x), axis=node.attrs["axis"])
    return jnp.flip(out, axis=node.attrs["axis"]) if node.attrs["descending"] else out


@register_lowering("jax", "GatherGrad")
def _gather_grad(node, g, idx, p):
    axis = node.attrs["axis"]
    idx = jnp.asarray(idx)
    zm = jnp.moveaxis(jnp.zeros_like(jnp.asarray(p)), axis, 0)
    g = jnp.asarray(g)
    gm = jnp.moveaxis(g, list(range(axis, axis + idx.ndim)), list(range(idx.ndim))) if idx.ndim else g
    return jnp.moveaxis(zm.at[idx].add(gm), 0, axis)


@register_lowering("jax", "TensorStridedSliceUpdate")
def _strided_slice_update(node, x, *rest):
    return jnp.asarray(x).at[_slice_index(node.attrs["spec"], rest[:-1])].set(rest[-1])


@register_lowering("jax", "Bincount")
def _bincount(node, arr, *weights):
    attrs = node.attrs
    lo, hi = attrs["minlength"], attrs["maxlength"]
    if lo is not None and lo == hi:
        size = int(lo)
    elif node.inputs[0].const is not None:
        c = np.asarray(node.inputs[0].const).reshape(-1)
        size = max(int(c.max()) + 1 if c.size else 0, lo or 0)
        size = size if hi is None else min(size, int(hi))
    else:
        raise StaticShapeError("the length of tf.math.bincount depends on the data (give minlength == maxlength "
                               "to fix it)")
    d = attrs["dtype"].np
    a = jnp.ravel(jnp.asarray(arr))
    keep = (a >= 0) & (a < size)
    w = jnp.ravel(jnp.asarray(weights[0], d)) if weights else jnp.ones(a.shape, d)
    out = jnp.zeros(size, d).at[jnp.where(keep, a, size)].add(jnp.where(keep, w, 0).astype(d), mode="drop")
    return (out > 0).astype(d) if attrs["binary"] else out


@register_lowering("jax", "StridedSliceGrad")
def _strided_slice_grad(node, g, x, *rest):
    z = jnp.zeros_like(jnp.asarray(x))
    return z.at[_slice_index(node.attrs["spec"], rest)].set(g)


def _conv(x, w, strides, padding, dilations):
    from autograph_cli.runtime.ops.nn import _out_and_pad  # the numpy kernel's padding rule

    kh, kw = w.shape[0], w.shape[1]
    pads = [_out_and_pad(x.shape[1 + k], (kh, kw)[k], strides[k], padding, dilations[k])[1] for k in range(2)]
    return lax.conv_general_dilated(
        x, w, window_strides=tuple(strides), padding=pads, rhs_dilation=tuple(dilations),
        dimension_numbers=("NHWC", "HWIO", "NHWC"), precision=lax.Precision.HIGHEST,
    )


@register_lowering("jax", "Conv2D")
def _conv2d(node, x, w):
    return _conv(jnp.asarray(x), jnp.asarray(w), **node.attrs)


# the convolution's gradients: JAX's transpose of the same convolution
@register_lowering("jax", "Conv2DBackpropInput")
def _conv2d_bp_input(node, x, w, dy):
    w = jnp.asarray(w)
    _, vjp = jax.vjp(lambda x_: _conv(x_, w, **node.attrs), jnp.asarray(x, jnp.asarray(dy).dtype))
    return vjp(jnp.asarray(dy))[0]


@register_lowering("jax", "Conv2DBackpropFilter")
def _conv2d_bp_filter(node, x, w, dy):
    x = jnp.asarray(x)
    _, vjp = jax.vjp(lambda w_: _conv(x, w_, **node.attrs), jnp.asarray(w, jnp.asarray(dy).dtype))
    return vjp(jnp.asarray(dy))[0]


_ = (lax, gradients, nn_ops)  # imported to declare their ops before lowerings attach to them

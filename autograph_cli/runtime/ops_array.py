"""Array ops beyond the core set: padding, sorting, masking, scatter/gather
by index tuples, segments, cumulative ops, clipping, reversing, splitting.

Each op follows TensorFlow 2.x's documented shape and dtype rules; sizes and
shapes may be tensors known only at run time (see shape_args).
"""
from __future__ import annotations

import builtins
import collections

import numpy as np

from . import dtypes as dt
from . import shape_args as _sa
from .errors import InvalidArgumentError
from .ops import (
    apply,
    apply1,
    cast,
    concat,
    convert_to_tensor,
    define,
    getitem,
    maximum,
    minimum,
    multiply,
    reduce_sum,
    sqrt,
    truediv,
    zeros_like,
    _convert_pair,
)
from .shapes import TensorShape
from .tensor import Tensor

__all__ = [
    "pad",
    "sort",
    "argsort",
    "top_k",
    "boolean_mask",
    "gather_nd",
    "scatter_nd",
    "tensor_scatter_nd_update",
    "tensor_scatter_nd_add",
    "tensor_scatter_nd_sub",
    "tensor_scatter_nd_max",
    "tensor_scatter_nd_min",
    "unique",
    "cumulative",
    "cumsum",
    "cumprod",
    "segment_sum",
    "segment_mean",
    "segment_max",
    "segment_min",
    "segment_prod",
    "unsorted_segment_sum",
    "unsorted_segment_max",
    "unsorted_segment_min",
    "unsorted_segment_mean",
    "clip_by_value",
    "clip_by_norm",
    "clip_by_global_norm",
    "global_norm",
    "reverse",
    "split",
    "gather_batched",
]


def _t(x, dtype=None, dtype_hint=None):
    if hasattr(x, "_as_tensor") and not isinstance(x, Tensor):
        x = x._as_tensor()
    return convert_to_tensor(x, dtype=dtype, dtype_hint=dtype_hint)


def _axis(axis, rank, fn, arg="axis"):
    a = _sa.require_static_int(axis, fn, arg)
    if rank is None:
        if a < 0:
            raise ValueError(f"{fn}: a negative `{arg}` needs an input of known rank")
        return a
    if not -builtins.max(rank, 1) <= a < builtins.max(rank, 1):
        raise ValueError(f"{fn}: `{arg}` {a} is out of bounds for an input of rank {rank}")
    return a % builtins.max(rank, 1)


# ------------------------------------------------------------------- pad
def _pad_infer(inputs, attrs):
    x, p = inputs[0], inputs[1]
    if not p.dtype.is_integer:
        raise TypeError(f"tf.pad: `paddings` must be int32 or int64, got {p.dtype.name}")
    rank = x.shape.rank
    if p.shape.rank not in (None, 2) or (p.shape.dims is not None and p.shape.dims[1] not in (None, 2)):
        raise ValueError(f"tf.pad: `paddings` must be a matrix with 2 columns, got shape {p.shape}")
    if rank is not None and p.shape.dims is not None and p.shape.dims[0] not in (None, rank):
        raise ValueError(
            f"tf.pad: the first dimension of `paddings` ({p.shape.dims[0]}) must be the rank of the input ({rank})"
        )
    if len(inputs) == 3 and inputs[2].dtype is not x.dtype:
        raise TypeError(
            f"tf.pad: `constant_values` ({inputs[2].dtype.name}) must have the input's dtype ({x.dtype.name})"
        )
    c = _sa.const_value(p)
    if rank is None:
        if p.shape.dims is not None and p.shape.dims[0] is not None:
            return [(x.dtype, TensorShape([None] * p.shape.dims[0]))]
        return [(x.dtype, TensorShape(None))]
    if c is None:
        return [(x.dtype, TensorShape([None] * rank))]
    c = np.asarray(c).reshape(rank, 2)
    if (c < 0).any():
        raise ValueError(f"tf.pad: paddings must be non-negative, got {c.tolist()}")
    mode = attrs.get("mode", "constant")
    dims = []
    for d, (lo, hi) in zip(x.shape.dims, c.tolist()):
        if d is not None and mode != "constant":
            lim = d - 1 if mode == "reflect" else d
            if lo > lim or hi > lim:
                raise ValueError(
                    f"tf.pad: paddings must be no greater than the dimension size ({lo}, {hi}) for "
                    f"{mode.upper()} mode and a dimension of size {d}"
                )
        dims.append(None if d is None else d + lo + hi)
    return [(x.dtype, TensorShape(dims))]


def _pad_kernel(x, paddings, value=None, mode="constant"):
    x = np.asarray(x)
    p = np.asarray(paddings).reshape(x.ndim, 2)
    if (p < 0).any():
        raise ValueError(f"paddings must be non-negative: {p.tolist()}")
    if mode == "constant":
        return np.pad(x, p, mode="constant", constant_values=value)
    lim = 1 if mode == "reflect" else 0
    for d, (lo, hi) in zip(x.shape, p.tolist()):
        if lo > d - lim or hi > d - lim:
            raise ValueError(
                f"paddings must be less than{'' if lim else ' or equal to'} the dimension size: {lo}, {hi} "
                f"for dimension of size {d}"
            )
    return np.pad(x, p, mode=mode)


PAD = define("PadV2", _pad_infer, lambda x, p, v: _pad_kernel(x, p, v))
MIRROR_PAD = define("MirrorPad", _pad_infer, lambda x, p, mode: _pad_kernel(x, p, None, mode))


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """tf.pad: CONSTANT, REFLECT or SYMMETRIC padding (case-insensitive)."""
    x = _t(tensor)
    m = str(mode).upper()
    if m not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError(f"tf.pad: unknown padding mode {mode!r} (CONSTANT, REFLECT or SYMMETRIC)")
    if isinstance(paddings, (list, tuple)) and any(isinstance(v, Tensor) for v in _sa_flat(paddings)):
        from .ops import stack

        p = stack([stack([_t(v, dtype_hint=dt.int32) for v in row]) if isinstance(row, (list, tuple)) else _t(row)
                   for row in paddings])
    else:
        p = _t(paddings, dtype_hint=dt.int32)
    if m == "CONSTANT":
        v = _t(constant_values, dtype=x.dtype) if not isinstance(constant_values, Tensor) else constant_values
        return apply1(PAD, [x, p, v])
    return apply1(MIRROR_PAD, [x, p], {"mode": m.lower()})


def _sa_flat(v):
    for a in v:
        if isinstance(a, (list, tuple)):
            yield from _sa_flat(a)
        else:
            yield a


# ----------------------------------------------------------------- sorting
def _argsort_np(x, axis, descending):
    x = np.asarray(x)
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    # descending, ties in their original order
    idx = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return (n - 1) - np.flip(idx, axis)


def _sort_infer(inputs, attrs):
    x = inputs[0]
    if x.dtype is dt.string or x.dtype is dt.bool:
        raise TypeError(f"tf.sort: unsupported dtype {x.dtype.name}")
    if x.shape.rank == 0:
        raise ValueError("tf.sort: the input must have rank >= 1")
    return [(x.dtype, x.shape)]


def _sort_kernel(x, axis, descending):
    x = np.asarray(x)
    return np.take_along_axis(x, _argsort_np(x, axis, descending), axis)


SORT = define("Sort", _sort_infer, _sort_kernel)
ARGSORT = define(
    "ArgSort",
    lambda i, a: [(dt.int32, _sort_infer(i, a)[0][1])],
    lambda x, axis, descending: _argsort_np(x, axis, descending).astype(np.int32),
)


def _direction(direction):
    d = str(direction).upper()
    if d not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"`direction` must be ASCENDING or DESCENDING, got {direction!r}")
    return d == "DESCENDING"


def sort(values, axis=-1, direction="ASCENDING", name=None):
    x = _t(values)
    return apply1(SORT, [x], {"axis": _axis(axis, x.shape.rank, "tf.sort"), "descending": _direction(direction)})


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    x = _t(values)
    return apply1(ARGSORT, [x], {"axis": _axis(axis, x.shape.rank, "tf.argsort"), "descending": _direction(direction)})


TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def _topk_infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank == 0:
        raise ValueError("tf.math.top_k: the input must have rank >= 1")
    k = attrs["k"] if len(inputs) == 1 else _sa.static_int(inputs[1])
    dims = x.shape.dims
    if dims is None:
        return [(x.dtype, TensorShape(None)), (dt.int32, TensorShape(None))]
    if k is not None and dims[-1] is not None and k > dims[-1]:
        raise ValueError(f"tf.math.top_k: input must have at least k={k} columns, had {dims[-1]}")
    out = TensorShape(list(dims[:-1]) + [k])
    return [(x.dtype, out), (dt.int32, out)]


def _topk_kernel(x, k, sorted=True):  # noqa: A002
    x = np.asarray(x)
    k = int(k)
    if k < 0:
        raise ValueError(f"Need k >= 0, got {k}")
    if k > x.shape[-1]:
        raise ValueError(f"input must have at least k={k} columns, had {x.shape[-1]}")
    idx = _argsort_np(x, -1, True)[..., :k]
    return np.take_along_axis(x, idx, -1), idx.astype(np.int32)


TOPK = define("TopKV2", _topk_infer, _topk_kernel)


def top_k(input, k=1, sorted=True, index_type=dt.int32, name=None):  # noqa: A002
    x = _t(input)
    kc = _sa.static_int(k)
    if kc is not None:
        v, i = apply(TOPK, [x], {"k": kc})
    else:
        v, i = apply(TOPK, [x, _t(k, dtype_hint=dt.int32)])
    if dt.as_dtype(index_type) is not dt.int32:
        i = cast(i, index_type)
    return TopKV2(v, i)


# ----------------------------------------------------------------- masking
def _bmask_infer(inputs, attrs):
    x, m = inputs
    if m.dtype is not dt.bool:
        raise TypeError(f"tf.boolean_mask: `mask` must be bool, got {m.dtype.name}")
    axis = attrs["axis"]
    k = m.shape.rank
    if k == 0:
        raise ValueError("tf.boolean_mask: mask cannot be scalar.")
    dims = x.shape.dims
    if dims is None or k is None:
        return [(x.dtype, TensorShape(None))]
    if axis + k > len(dims):
        raise ValueError(f"tf.boolean_mask: mask of rank {k} does not fit the input's shape {x.shape} at axis {axis}")
    if not TensorShape(dims[axis:axis + k]).is_compatible_with(m.shape):
        raise ValueError(
            f"Shapes {TensorShape(dims[axis:axis + k])} and {m.shape} are incompatible (tf.boolean_mask)"
        )
    n = None
    c = _sa.const_value(m)
    if c is not None:
        n = int(np.count_nonzero(c))
    return [(x.dtype, TensorShape(list(dims[:axis]) + [n] + list(dims[axis + k:])))]


def _bmask_kernel(x, m, axis):
    x = np.asarray(x)
    m = np.asarray(m)
    if x.shape[axis:axis + m.ndim] != m.shape:
        raise ValueError(f"mask shape {m.shape} does not match the input's shape {x.shape} at axis {axis}")
    return x[(slice(None),) * axis + (m,)]


BOOLEAN_MASK = define("BooleanMask", _bmask_infer, _bmask_kernel)


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    x = _t(tensor)
    m = _t(mask, dtype_hint=dt.bool)
    a = 0 if axis is None else _axis(axis, x.shape.rank, "tf.boolean_mask")
    return apply1(BOOLEAN_MASK, [x, m], {"axis": a})


# ------------------------------------------------------- gather/scatter nd
def _check_indices(idx, shape, what):
    idx = np.asarray(idx)
    k = idx.shape[-1] if idx.ndim else 0
    if k > len(shape):
        raise ValueError(f"index innermost dimension {k} exceeds the rank {len(shape)} of {what}")
    lim = np.asarray(shape[:k])
    bad = (idx < 0) | (idx >= lim)
    if bad.any():
        pos = np.argwhere(bad.any(axis=-1))[0]
        raise IndexError(
            f"indices{list(pos.tolist())} = {idx[tuple(pos)].tolist()} does not index into {what} of shape "
            f"{list(shape)}"
        )
    return tuple(np.moveaxis(idx, -1, 0)) if k else ()


def _gather_nd_infer(inputs, attrs):
    p, idx = inputs
    if not idx.dtype.is_integer:
        raise TypeError(f"tf.gather_nd: indices must be int32 or int64, got {idx.dtype.name}")
    b = attrs["batch_dims"]
    if p.shape.dims is None or idx.shape.dims is None or idx.shape.dims[-1] is None:
        return [(p.dtype, TensorShape(None))]
    k = idx.shape.dims[-1]
    if b + k > len(p.shape.dims):
        raise ValueError(
            f"tf.gather_nd: index innermost dimension ({k}) plus batch_dims ({b}) must be <= the rank of params "
            f"({len(p.shape.dims)})"
        )
    return [(p.dtype, TensorShape(list(idx.shape.dims[:-1]) + list(p.shape.dims[b + k:])))]


def _gather_nd_kernel(p, idx, batch_dims):
    p = np.asarray(p)
    idx = np.asarray(idx)
    if batch_dims == 0:
        return p[_check_indices(idx, p.shape, "params")]
    bshape = p.shape[:batch_dims]
    pf = p.reshape((-1,) + p.shape[batch_dims:])
    fi = idx.reshape((-1,) + idx.shape[batch_dims:])
    outs = [q[_check_indices(i, q.shape, "params")] for q, i in zip(pf, fi)]
    out = np.stack(outs) if outs else np.zeros((0,) + idx.shape[batch_dims:-1] + p.shape[batch_dims + idx.shape[-1]:],
                                              p.dtype)
    return out.reshape(bshape + out.shape[1:])


GATHER_ND = define("GatherNd", _gather_nd_infer, _gather_nd_kernel)


def gather_nd(params, indices, batch_dims=0, name=None):
    p = _t(params)
    return apply1(GATHER_ND, [p, _t(indices)], {"batch_dims": _sa.require_static_int(batch_dims, "tf.gather_nd", "batch_dims")})


def _scatter_shape_check(idx, upd, out_dims, fn):
    """updates.shape must be indices.shape[:-1] + shape[indices.shape[-1]:]."""
    if idx.shape.dims is None or upd.shape.dims is None or out_dims is None or idx.shape.dims[-1] is None:
        return
    k = idx.shape.dims[-1]
    want = TensorShape(list(idx.shape.dims[:-1]) + list(out_dims[k:]))
    if not want.is_compatible_with(upd.shape):
        raise ValueError(
            f"{fn}: the shape of updates {upd.shape} must be indices.shape[:-1] + shape[indices.shape[-1]:] = {want}"
        )


def _scatter_nd_infer(inputs, attrs):
    idx, upd, shp = inputs
    if not idx.dtype.is_integer:
        raise TypeError(f"tf.scatter_nd: indices must be int32 or int64, got {idx.dtype.name}")
    dims = _sa.static_shape_of(shp)
    _scatter_shape_check(idx, upd, dims, "tf.scatter_nd")
    return [(upd.dtype, TensorShape(dims))]


def _scatter_nd_kernel(idx, upd, shape):
    upd = np.asarray(upd)
    out = np.zeros(tuple(np.atleast_1d(shape).tolist()), dtype=upd.dtype)
    np.add.at(out, _check_indices(idx, out.shape, "the output"), upd)
    return out


SCATTER_ND = define("ScatterNd", _scatter_nd_infer, _scatter_nd_kernel)


def scatter_nd(indices, updates, shape, name=None):
    u = _t(updates)
    s, st = _sa.shape_arg(shape, "tf.scatter_nd", "shape")
    i = _t(indices)
    if st is None:
        st = _t(list(s), dtype=i.dtype)
    elif st.dtype is not i.dtype:
        st = cast(st, i.dtype)
    return apply1(SCATTER_ND, [i, u, st])


def _tscatter_infer(name):
    def infer(inputs, attrs):
        x, idx, upd = inputs
        if not idx.dtype.is_integer:
            raise TypeError(f"{name}: indices must be int32 or int64, got {idx.dtype.name}")
        if upd.dtype is not x.dtype:
            raise TypeError(f"{name}: updates ({upd.dtype.name}) must have the tensor's dtype ({x.dtype.name})")
        _scatter_shape_check(idx, upd, x.shape.dims, name)
        return [(x.dtype, x.shape)]

    return infer


def _tscatter_kernel(how):
    def kernel(x, idx, upd):
        out = np.array(x, copy=True)
        where = _check_indices(idx, out.shape, "the tensor")
        upd = np.asarray(upd)
        if how == "update":
            out[where] = upd
        elif how == "add":
            np.add.at(out, where, upd)
        elif how == "sub":
            np.subtract.at(out, where, upd)
        elif how == "max":
            np.maximum.at(out, where, upd)
        else:
            np.minimum.at(out, where, upd)
        return out

    return kernel


_TSCATTER = {
    how: define(f"TensorScatter{op}", _tscatter_infer(f"tf.tensor_scatter_nd_{how}"), _tscatter_kernel(how))
    for how, op in (("update", "Update"), ("add", "Add"), ("sub", "Sub"), ("max", "Max"), ("min", "Min"))
}


def _tscatter(how):
    def f(tensor, indices, updates, name=None):
        x = _t(tensor)
        u = updates if isinstance(updates, Tensor) else _t(updates, dtype=x.dtype)
        return apply1(_TSCATTER[how], [x, _t(indices), u])

    f.__name__ = f"tensor_scatter_nd_{how}"
    return f


tensor_scatter_nd_update = _tscatter("update")
tensor_scatter_nd_add = _tscatter("add")
tensor_scatter_nd_sub = _tscatter("sub")
tensor_scatter_nd_max = _tscatter("max")
tensor_scatter_nd_min = _tscatter("min")


# ------------------------------------------------------------------ unique
UniqueOutput = collections.namedtuple("UniqueOutput", ["y", "idx"])


def _unique_infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank not in (None, 1):
        raise ValueError(f"tf.unique: the input must be a vector, got shape {x.shape}")
    return [(x.dtype, TensorShape([None])), (attrs["out_idx"], x.shape if x.shape.rank else TensorShape([None]))]


def _unique_kernel(x, out_idx):
    x = np.asarray(x)
    if x.dtype == object:
        seen = {}
        idx = np.array([seen.setdefault(v, len(seen)) for v in x.tolist()], dtype=out_idx.np)
        y = np.empty(len(seen), dtype=object)
        y[:] = list(seen)
        return y, idx
    _, first, inv = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # first-occurrence order, as TensorFlow
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return x[np.sort(first)], rank[inv.reshape(-1)].astype(out_idx.np)


UNIQUE = define("Unique", _unique_infer, _unique_kernel)


def unique(x, out_idx=dt.int32, name=None):
    y, i = apply(UNIQUE, [_t(x)], {"out_idx": dt.as_dtype(out_idx)})
    return UniqueOutput(y, i)


# -------------------------------------------------------------- cumulative
def _cum_infer(inputs, attrs):
    x = inputs[0]
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise TypeError(f"cumulative ops need a numeric tensor, got {x.dtype.name}")
    return [(x.dtype, x.shape)]


def _cum_kernel(x, axis, exclusive, reverse, kind):
    x = np.asarray(x)
    if x.ndim == 0:
        raise ValueError("cumulative ops need a tensor of rank >= 1")
    if reverse:
        x = np.flip(x, axis)
    fn = np.cumsum if kind == "sum" else np.cumprod
    out = fn(x, axis=axis, dtype=x.dtype)
    if exclusive:
        first = np.zeros_like(np.take(x, [0], axis)) if kind == "sum" else np.ones_like(np.take(x, [0], axis))
        out = np.concatenate([first, np.take(out, np.arange(x.shape[axis] - 1), axis)], axis)
    if reverse:
        out = np.flip(out, axis)
    return out


CUMULATIVE = define("Cumulative", _cum_infer, _cum_kernel)
CUMPROD = define("Cumprod", _cum_infer, lambda x, axis, exclusive, reverse: _cum_kernel(x, axis, exclusive, reverse, "prod"))


def cumulative(kind, x, axis=0, exclusive=False, reverse=False):
    from . import ops

    x = _t(x)
    a = _axis(axis, x.shape.rank, f"tf.math.cum{kind}")
    if x.shape.rank == 0:
        raise ValueError(f"tf.math.cum{kind}: the input must have rank >= 1")
    if kind == "sum" and not exclusive and not reverse:
        return apply1(ops.CUMSUM, [x], {"axis": a})
    if kind == "prod":
        return apply1(CUMPROD, [x], {"axis": a, "exclusive": bool(exclusive), "reverse": bool(reverse)})
    return apply1(CUMULATIVE, [x], {"axis": a, "exclusive": bool(exclusive), "reverse": bool(reverse), "kind": kind})


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    return cumulative("sum", x, axis, exclusive, reverse)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    return cumulative("prod", x, axis, exclusive, reverse)


# ---------------------------------------------------------------- segments
def _segment_infer(inputs, attrs):
    data, ids = inputs[0], inputs[1]
    if not ids.dtype.is_integer:
        raise TypeError(f"segment ids must be int32 or int64, got {ids.dtype.name}")
    k = ids.shape.rank
    n = None
    if len(inputs) == 3:
        n = _sa.static_int(inputs[2])
    else:
        c = _sa.const_value(ids)
        if c is not None:
            n = int(np.max(c)) + 1 if np.size(c) else 0
    if data.shape.dims is None or k is None:
        return [(data.dtype, TensorShape(None))]
    if not TensorShape(data.shape.dims[:k]).is_compatible_with(ids.shape):
        raise ValueError(f"segment_ids shape {ids.shape} must be a prefix of data's shape {data.shape}")
    return [(data.dtype, TensorShape([n] + list(data.shape.dims[k:])))]


_SEG_INIT = {"sum": 0, "prod": 1, "mean": 0}


def _segment_kernel(data, ids, num=None, kind="sum", sorted_=True):
    data = np.asarray(data)
    ids = np.asarray(ids)
    if sorted_ and ids.size and (np.diff(ids.reshape(-1)) < 0).any():
        raise ValueError("segment ids are not increasing")
    if num is None:
        num = int(ids.max()) + 1 if ids.size else 0
    num = int(num)
    if ids.size and (ids.max() >= num or (sorted_ and ids.min() < 0)):
        raise ValueError(f"segment ids must be in [0, {num})")
    flat = data.reshape((-1,) + data.shape[ids.ndim:])
    fid = ids.reshape(-1)
    keep = fid >= 0  # unsorted segment ops drop negative ids
    flat, fid = flat[keep], fid[keep]
    shape = (num,) + data.shape[ids.ndim:]
    if kind in ("max", "min"):
        if data.dtype.kind == "f":
            init = -np.inf if kind == "max" else np.inf
        else:
            info = np.iinfo(data.dtype)
            init = info.min if kind == "max" else info.max
        out = np.full(shape, init, dtype=data.dtype)
        (np.maximum if kind == "max" else np.minimum).at(out, fid, flat)
        if sorted_:  # empty segments of segment_max/min are 0
            present = np.zeros(num, bool)
            present[fid] = True
            out[~present] = 0
        return out
    out = np.full(shape, _SEG_INIT[kind], dtype=data.dtype)
    if kind == "prod":
        np.multiply.at(out, fid, flat)
        return out
    np.add.at(out, fid, flat)
    if kind == "mean":
        cnt = np.bincount(fid, minlength=num).reshape((num,) + (1,) * (len(shape) - 1))
        out = (out / np.maximum(cnt, 1)).astype(data.dtype) if data.dtype.kind == "f" else out // np.maximum(cnt, 1)
    return out


_SEG_OPS = {}
for _kind in ("sum", "mean", "max", "min", "prod"):
    _SEG_OPS[(_kind, True)] = define(
        f"Segment{_kind.capitalize()}", _segment_infer,
        lambda d, i, _k=_kind: _segment_kernel(d, i, None, _k, True))
    _SEG_OPS[(_kind, False)] = define(
        f"UnsortedSegment{_kind.capitalize()}", _segment_infer,
        lambda d, i, n, _k=_kind: _segment_kernel(d, i, n, _k, False))


def _segment(kind):
    def f(data, segment_ids, name=None):
        return apply1(_SEG_OPS[(kind, True)], [_t(data), _t(segment_ids)])

    f.__name__ = f"segment_{kind}"
    return f


def _unsorted_segment(kind):
    def f(data, segment_ids, num_segments, name=None):
        return apply1(_SEG_OPS[(kind, False)], [_t(data), _t(segment_ids), _t(num_segments, dtype_hint=dt.int32)])

    f.__name__ = f"unsorted_segment_{kind}"
    return f


segment_sum = _segment("sum")
segment_mean = _segment("mean")
segment_max = _segment("max")
segment_min = _segment("min")
segment_prod = _segment("prod")
unsorted_segment_sum = _unsorted_segment("sum")
unsorted_segment_mean = _unsorted_segment("mean")
unsorted_segment_max = _unsorted_segment("max")
unsorted_segment_min = _unsorted_segment("min")
unsorted_segment_prod = _unsorted_segment("prod")


# ---------------------------------------------------------------- clipping
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    x = _t(t)
    lo = clip_value_min if isinstance(clip_value_min, Tensor) else _t(clip_value_min, dtype=x.dtype)
    hi = clip_value_max if isinstance(clip_value_max, Tensor) else _t(clip_value_max, dtype=x.dtype)
    out = maximum(minimum(x, hi), lo)
    if x.shape.dims is not None and out.shape.dims is not None and out.shape.rank != x.shape.rank:
        raise ValueError(f"tf.clip_by_value: clipping bounds would change the shape {x.shape} to {out.shape}")
    return out


def clip_by_norm(t, clip_norm, axes=None, name=None):
    x = _t(t)
    if not x.dtype.is_floating:
        raise TypeError(f"tf.clip_by_norm needs a floating tensor, got {x.dtype.name}")
    c = _t(clip_norm, dtype=x.dtype) if not isinstance(clip_norm, Tensor) else clip_norm
    sq = reduce_sum(x * x, axes, keepdims=True)
    pos = sq > 0
    from .ops import where, ones_like

    safe = where(pos, sq, ones_like(sq))
    l2 = where(pos, sqrt(safe), sq)
    return truediv(x * c, maximum(l2, c))


def global_norm(t_list, name=None):
    parts = [reduce_sum(_t(v) * _t(v)) for v in t_list if v is not None]
    if not parts:
        raise ValueError("tf.linalg.global_norm: t_list has no tensors")
    from .ops import add_n

    return sqrt(add_n(parts))


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    if isinstance(t_list, Tensor) or not isinstance(t_list, (list, tuple)):
        raise TypeError("tf.clip_by_global_norm: t_list should be a sequence of tensors")
    t_list = list(t_list)
    norm = global_norm(t_list) if use_norm is None else _t(use_norm)
    c = clip_norm if isinstance(clip_norm, Tensor) else _t(clip_norm, dtype=norm.dtype)
    one = _t(1.0, dtype=norm.dtype)
    scale = c * minimum(truediv(one, norm), truediv(one, c))
    out = [None if v is None else multiply(_t(v), cast(scale, _t(v).dtype)) for v in t_list]
    return out, norm


# ----------------------------------------------------------------- reverse
def _reverse_infer(inputs, attrs):
    return [(inputs[0].dtype, inputs[0].shape)]


REVERSE = define("ReverseV2", _reverse_infer, lambda x, axis: np.flip(x, axis) if axis else np.asarray(x))


def reverse(tensor, axis, name=None):
    x = _t(tensor)
    axes = _sa.require_static_ints(axis, "tf.reverse", "axis")
    r = x.shape.rank
    norm = tuple(sorted({a % r if r else a for a in axes})) if r is not None else axes
    if r is not None:
        for a in axes:
            if not -r <= a < r:
                raise ValueError(f"tf.reverse: axis {a} is out of bounds for a tensor of rank {r}")
    return apply1(REVERSE, [x], {"axis": norm})


# ------------------------------------------------------------------- split
def _split_infer(inputs, attrs):
    x = inputs[0]
    sizes, num, a = attrs["sizes"], attrs["num"], attrs["axis"]
    k = num if sizes is None else len(sizes)
    if x.shape.dims is None:
        return [(x.dtype, TensorShape(None))] * k
    d = x.shape.dims[a]
    if sizes is None:
        if d is not None and d % num:
            raise ValueError(f"tf.split: dimension {a} of size {d} is not evenly divisible by {num}")
        out = [None if d is None else d // num] * num
    else:
        out = list(sizes)
        if -1 in out:
            rest = builtins.sum(s for s in out if s != -1)
            if d is not None and rest > d:
                raise ValueError(f"tf.split: sizes {list(sizes)} exceed dimension {a} of size {d}")
            out[out.index(-1)] = None if d is None else d - rest
        elif d is not None and builtins.sum(out) != d:
            raise ValueError(f"tf.split: sizes {list(sizes)} do not add up to dimension {a} of size {d}")
    return [(x.dtype, TensorShape(x.shape.dims[:a] + (s,) + x.shape.dims[a + 1:])) for s in out]


def _split_kernel(x, sizes, num, axis):
    x = np.asarray(x)
    d = x.shape[axis]
    if sizes is None:
        if d % num:
            raise ValueError(f"Number of ways to split should evenly divide the split dimension, but got split_dim {d} (size = {d}) and num_split {num}")
        return tuple(np.split(x, num, axis))
    sizes = list(sizes)
    if -1 in sizes:
        sizes[sizes.index(-1)] = d - (builtins.sum(sizes) + 1)
    if builtins.sum(sizes) != d or builtins.min(sizes) < 0:
        raise ValueError(f"Determined shape must either match input shape along split_dim exactly if fully specified, or be less than the size of the input along split_dim if not fully specified: sizes {sizes}, dimension {d}")
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis))


SPLIT = define("SplitV", _split_infer, _split_kernel)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    x = _t(value)
    a = _axis(axis, x.shape.rank, "tf.split")
    c = _sa.const_value(num_or_size_splits)
    if c is None:
        raise _sa.StaticArgumentError(
            "tf.split: argument `num_or_size_splits` must be known while tracing (it sets the number of outputs)"
        )
    if np.ndim(c) == 0:
        n = int(c)
        if n <= 0:
            raise ValueError(f"tf.split: num_split must be positive, got {n}")
        attrs = {"sizes": None, "num": n, "axis": a}
    else:
        sizes = tuple(int(s) for s in np.asarray(c).tolist())
        if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
            raise ValueError(f"tf.split: invalid size_splits {list(sizes)} (at most one -1, no other negatives)")
        attrs = {"sizes": sizes, "num": len(sizes), "axis": a}
    return list(apply(SPLIT, [x], attrs))


# ---------------------------------------------------------- gather batched
def _gather_b_infer(inputs, attrs):
    p, idx = inputs
    a, b = attrs["axis"], attrs["batch_dims"]
    if p.shape.dims is None or idx.shape.dims is None:
        return [(p.dtype, TensorShape(None))]
    return [(p.dtype, TensorShape(p.shape.dims[:a] + idx.shape.dims[b:] + p.shape.dims[a + 1:]))]


def _gather_b_kernel(p, idx, axis, batch_dims):
    p = np.asarray(p)
    idx = np.asarray(idx)
    bshape = p.shape[:batch_dims]
    if idx.shape[:batch_dims] != bshape:
        raise ValueError(f"batch dimensions of params {p.shape} and indices {idx.shape} differ")
    pf = p.reshape((-1,) + p.shape[batch_dims:])
    fi = idx.reshape((-1,) + idx.shape[batch_dims:])
    ax = axis - batch_dims
    n = p.shape[axis]
    if ((fi < 0) | (fi >= n)).any():
        raise IndexError(f"indices are not in [0, {n})")
    outs = [np.take(q, i, axis=ax) for q, i in zip(pf, fi)]
    tail = p.shape[batch_dims:axis] + idx.shape[batch_dims:] + p.shape[axis + 1:]
    out = np.stack(outs) if outs else np.zeros((0,) + tail, p.dtype)
    return out.reshape(bshape + tail)


GATHER_BATCHED = define("GatherV2Batched", _gather_b_infer, _gather_b_kernel)


def gather_batched(params, indices, axis, batch_dims):
    p = _t(params)
    i = _t(indices)
    r, ri = p.shape.rank, i.shape.rank
    if r is None or ri is None:
        raise ValueError("tf.gather with batch_dims needs params and indices of known rank")
    b = _sa.require_static_int(batch_dims, "tf.gather", "batch_dims")
    b = b % (ri + 1) if b < 0 else b
    a = b if axis is None else _axis(axis, r, "tf.gather")
    if not b <= a:
        raise ValueError(f"tf.gather: batch_dims ({b}) must be less than or equal to axis ({a})")
    if b == 0:
        from .ops import GATHER

        return apply1(GATHER, [p, i], {"axis": a})
    return apply1(GATHER_BATCHED, [p, i], {"axis": a, "batch_dims": b})


_ = (InvalidArgumentError, getitem, concat, zeros_like, _convert_pair)

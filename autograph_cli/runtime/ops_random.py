"""Random ops beyond uniform/normal: stateless variants (same seed, same
numbers, also inside a traced loop), truncated normal, shuffle.

Numbers come from numpy's generators, so they differ from TensorFlow's; the
seeding rules follow TensorFlow's: stateless ops are a function of `seed`
(a shape [2] integer tensor), stateful ops of (global seed, op seed).
"""
from __future__ import annotations

import numpy as np

from . import dtypes as dt
from . import shape_args as _sa
from .ops import _RandomState, apply1, convert_to_tensor, define
from .shapes import TensorShape
from .tensor import Tensor

__all__ = ["stateless_uniform", "stateless_normal", "stateless_truncated_normal", "truncated_normal", "shuffle"]

_MASK = 0xFFFFFFFFFFFFFFFF


def _stateless_infer(inputs, attrs):
    shp, seed = inputs
    if not seed.dtype.is_integer:
        raise TypeError(f"stateless random ops: `seed` must be int32 or int64, got {seed.dtype.name}")
    if seed.shape.dims is not None and seed.shape.dims != (2,) and seed.shape.dims != (None,):
        raise ValueError(f"stateless random ops: `seed` must have shape [2], got {seed.shape}")
    return [(attrs["dtype"], TensorShape(_sa.static_shape_of(shp)))]


def _rng(seed):
    s = np.asarray(seed).reshape(-1)
    if s.shape != (2,):
        raise ValueError(f"seed must have shape [2], not {list(np.shape(seed))}")
    return np.random.default_rng([int(v) & _MASK for v in s.tolist()] + [0x5EED])


def _truncated(rng, shape):
    out = rng.standard_normal(size=shape)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = rng.standard_normal(size=int(bad.sum()))
        bad = np.abs(out) > 2
    return out


def _sample(rng, shape, dtype, kind, a, b):
    shape = tuple(np.atleast_1d(shape).tolist())
    if kind == "uniform":
        if dtype.is_integer:
            return rng.integers(a, b, size=shape, dtype=dtype.np)
        return (rng.random(size=shape) * (b - a) + a).astype(dtype.np)
    base = rng.standard_normal(size=shape) if kind == "normal" else _truncated(rng, shape)
    return (base * b + a).astype(dtype.np)


STATELESS = define(
    "StatelessRandom",
    _stateless_infer,
    lambda shape, seed, dtype, kind, a, b: _sample(_rng(seed), shape, dtype, kind, a, b),
)


def _shape_tensor(shape, fn):
    s, st = _sa.shape_arg(shape, fn, "shape")
    return convert_to_tensor(list(s), dtype=dt.int32) if st is None else st


def _scalar(v, fn, arg):
    c = _sa.const_value(v)
    if c is None or np.ndim(c):
        raise _sa.StaticArgumentError(f"{fn}: argument `{arg}` must be a scalar known while tracing")
    return c.item() if hasattr(c, "item") else c


def _seed(seed):
    return seed if isinstance(seed, Tensor) else convert_to_tensor(seed, dtype_hint=dt.int64)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dt.float32, name=None, alg="auto_select"):
    dtype = dt.as_dtype(dtype)
    if maxval is None:
        if dtype.is_integer:
            raise ValueError("Must specify maxval for integer dtype")
        maxval = 1
    fn = "tf.random.stateless_uniform"
    a, b = _scalar(minval, fn, "minval"), _scalar(maxval, fn, "maxval")
    return apply1(STATELESS, [_shape_tensor(shape, fn), _seed(seed)],
                  {"dtype": dtype, "kind": "uniform", "a": a, "b": b})


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dt.float32, name=None, alg="auto_select"):
    fn = "tf.random.stateless_normal"
    return apply1(STATELESS, [_shape_tensor(shape, fn), _seed(seed)],
                  {"dtype": dt.as_dtype(dtype), "kind": "normal", "a": _scalar(mean, fn, "mean"),
                   "b": _scalar(stddev, fn, "stddev")})


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dt.float32, name=None, alg="auto_select"):
    fn = "tf.random.stateless_truncated_normal"
    return apply1(STATELESS, [_shape_tensor(shape, fn), _seed(seed)],
                  {"dtype": dt.as_dtype(dtype), "kind": "truncated", "a": _scalar(mean, fn, "mean"),
                   "b": _scalar(stddev, fn, "stddev")})


def _stateful_infer(inputs, attrs):
    return [(attrs["dtype"], TensorShape(_sa.static_shape_of(inputs[0])))]


TRUNCATED = define(
    "TruncatedNormal",
    _stateful_infer,
    lambda shape, dtype, a, b, rng: _sample(rng, shape, dtype, "truncated", a, b),
    nofold=True,
)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dt.float32, seed=None, name=None):
    fn = "tf.random.truncated_normal"
    return apply1(TRUNCATED, [_shape_tensor(shape, fn)],
                  {"dtype": dt.as_dtype(dtype), "a": _scalar(mean, fn, "mean"), "b": _scalar(stddev, fn, "stddev"),
                   "rng": _RandomState.generator(seed)})


def _shuffle_kernel(x, rng):
    x = np.asarray(x)
    if x.ndim == 0:
        raise ValueError("shuffle needs a tensor of rank >= 1")
    return x[rng.permutation(x.shape[0])]


SHUFFLE = define("RandomShuffle", lambda i, a: [(i[0].dtype, i[0].shape)], _shuffle_kernel, nofold=True)


def shuffle(value, seed=None, name=None):
    return apply1(SHUFFLE, [convert_to_tensor(value)], {"rng": _RandomState.generator(seed)})

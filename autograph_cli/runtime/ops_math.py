"""More tf.math: elementwise functions, predicates, statistics reductions."""
from __future__ import annotations

import numpy as np

from . import dtypes as dt
from .ops import (
    _binary_infer,
    _convert_pair,
    _t,
    _unary,
    apply1,
    cast,
    define,
    equal,
    exp,
    log,
    not_equal,
    reduce_max,
    reduce_mean,
    reduce_sum,
    sqrt,
    square,
    where,
    zeros_like,
)
from .shapes import TensorShape

LOG1P = _unary("Log1p", "np.log1p({0})", True)
EXPM1 = _unary("Expm1", "np.expm1({0})", True)
TAN = _unary("Tan", "np.tan({0})", True)
ASIN = _unary("Asin", "np.arcsin({0})", True)
ACOS = _unary("Acos", "np.arccos({0})", True)
ATAN = _unary("Atan", "np.arctan({0})", True)
SINH = _unary("Sinh", "np.sinh({0})", True)
COSH = _unary("Cosh", "np.cosh({0})", True)
ATAN2 = define("Atan2", _binary_infer("Atan2"), expr="np.arctan2({0}, {1})")


def _float_pred(name, fn):
    def infer(inputs, attrs):
        x = inputs[0]
        if not x.dtype.is_floating:
            raise TypeError(
                f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed values for {name}: "
                "float16, float32, float64"
            )
        return [(dt.bool, x.shape)]

    return define(name, infer, expr=fn)


IS_NAN = _float_pred("IsNan", "np.isnan({0})")
IS_INF = _float_pred("IsInf", "np.isinf({0})")
IS_FINITE = _float_pred("IsFinite", "np.isfinite({0})")


def _u(op):
    def f(x, name=None):
        return apply1(op, [_t(x)])

    f.__name__ = op.name.lower()
    return f


log1p = _u(LOG1P)
expm1 = _u(EXPM1)
tan = _u(TAN)
asin = _u(ASIN)
acos = _u(ACOS)
atan = _u(ATAN)
sinh = _u(SINH)
cosh = _u(COSH)
is_nan = _u(IS_NAN)
is_inf = _u(IS_INF)
is_finite = _u(IS_FINITE)


def atan2(y, x, name=None):
    y, x = _convert_pair(y, x)
    if not y.dtype.is_floating:
        raise TypeError(f"tf.math.atan2 needs floating tensors, got {y.dtype.name}")
    return apply1(ATAN2, [y, x])


def divide_no_nan(x, y, name=None):
    """x / y, with 0 where y is 0."""
    x, y = _convert_pair(x, y)
    if not x.dtype.is_floating:
        raise TypeError(f"tf.math.divide_no_nan needs floating tensors, got {x.dtype.name}")
    zero = not_equal(y, 0)
    safe = where(zero, y, y * 0 + 1)
    return where(zero, x / safe, zeros_like(x / safe))


def multiply_no_nan(x, y, name=None):
    """x * y, with 0 where y is 0 (even when x is nan or inf)."""
    x, y = _convert_pair(x, y)
    return where(equal(y, 0), zeros_like(x * y), x * y)


def log_sigmoid(x, name=None):
    from .ops import softplus, negative

    return negative(softplus(negative(_t(x))))


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    x = _t(input_tensor)
    if not x.dtype.is_floating:
        raise TypeError(f"tf.reduce_logsumexp needs a floating tensor, got {x.dtype.name}")
    m = reduce_max(x, axis, keepdims=True)
    m = where(is_finite(m), m, zeros_like(m))
    # (the shift cancels out of the value and of the gradient)
    out = log(reduce_sum(exp(x - m), axis, keepdims=True)) + m
    if not keepdims:
        from .ops import squeeze, reshape

        if axis is None:
            return reshape(out, [])
        from . import shape_args as _sa

        ax = _sa.const_value(axis)
        if ax is None:
            raise ValueError("tf.reduce_logsumexp: `axis` must be known while tracing")
        return squeeze(out, list(np.atleast_1d(ax).tolist()))
    return out


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    x = _t(input_tensor)
    if not x.dtype.is_floating:
        raise TypeError(f"tf.math.reduce_variance needs a floating tensor, got {x.dtype.name}")
    m = reduce_mean(x, axis, keepdims=True)
    return reduce_mean(square(x - m), axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return sqrt(reduce_variance(input_tensor, axis, keepdims))


def count_nonzero(input, axis=None, keepdims=None, dtype=dt.int64, name=None):  # noqa: A002
    x = _t(input)
    nz = not_equal(x, "" if x.dtype is dt.string else 0) if x.dtype is not dt.bool else x
    return reduce_sum(cast(nz, dtype), axis, keepdims=bool(keepdims))


_ = TensorShape

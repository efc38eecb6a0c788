"""String ops: tf.strings.join, tf.strings.as_string."""
from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..opdef import define
from ._core import _t, apply1, broadcast_shapes


# ---------------------------------------------------------------- strings
def _strjoin_infer(inputs, attrs):
    for t in inputs:
        if t.dtype is not dt.string:
            raise TypeError("tf.strings.join expects string tensors")
    s = inputs[0].shape
    for t in inputs[1:]:
        s = broadcast_shapes(s, t.shape)
    return [(dt.string, s)]


def _strjoin_kernel(*xs, separator):
    sep = separator.encode() if isinstance(separator, str) else separator
    if all(isinstance(x, bytes) for x in xs):
        return sep.join(xs)
    arrs = np.broadcast_arrays(*[np.asarray(x, dtype=object) for x in xs])
    out = np.empty(arrs[0].shape, dtype=object)
    for idx in np.ndindex(out.shape):
        out[idx] = sep.join(a[idx] for a in arrs)
    return out


STRJOIN = define("StringJoin", _strjoin_infer, _strjoin_kernel, sig="*inputs, separator: str")


def _as_string_kernel(x):
    if np.ndim(x) == 0:
        v = x.item() if hasattr(x, "item") else x
        if isinstance(v, float):
            return ("%f" % v).encode()
        return str(v).encode()
    return np.vectorize(lambda v: (("%f" % v) if isinstance(v, float) else str(v)).encode(), otypes=[object])(np.asarray(x).tolist() and np.asarray(x).astype(object))


AS_STRING = define("AsString", lambda i, a: [(dt.string, i[0].shape)], _as_string_kernel, sig="x")



def string_join(inputs, separator="", name=None):
    return apply1(STRJOIN, [_t(i, dtype=dt.string) for i in inputs], {"separator": separator})


def as_string(x, name=None):
    return apply1(AS_STRING, [_t(x)])



"""Side-effecting ops: print (tf.print) and py_function."""
from __future__ import annotations

import sys

import numpy as np

from . import dtypes as dt
from . import nest
from . import ops
from .context import ctx
from .tensor import EagerTensor, Tensor, convert_to_tensor, to_numpy

__all__ = ["print_", "py_function", "format_value"]


def _fmt_float(x, dtype):
    """TensorFlow's float rendering: the short form when it round-trips,
    else full precision (6 then 9 digits for float32, 15 then 17 for float64)."""
    short, full = (15, 17) if dtype is dt.float64 else (6, 9)
    text = "%.*g" % (short, x)
    if dtype.np(float(text)) != x:
        text = "%.*g" % (full, x)
    return text


def _fmt_scalar(v, dtype):
    if dtype.is_floating:
        return _fmt_float(v, dtype)
    if dtype is dt.string:
        return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
    if dtype is dt.bool:
        return "1" if bool(v) else "0"
    return str(v)


def format_value(v, dtype, summarize=3):
    """TensorFlow's tf.print rendering of one tensor value."""
    if np.ndim(v) == 0:
        return _fmt_scalar(v, dtype)
    arr = np.asarray(v)
    if dtype is dt.string:
        fmt = {"all": lambda x: '"' + (x.decode("utf-8", "replace") if isinstance(x, bytes) else str(x)) + '"'}
    elif dtype is dt.bool:
        fmt = {"all": lambda x: "1" if x else "0"}
    elif dtype.is_floating:
        fmt = {"float_kind": lambda x: _fmt_float(x, dtype)}
    else:
        fmt = {"int_kind": lambda x: str(x)}
    threshold = arr.size if summarize is None or summarize < 0 else 2 * summarize
    edge = summarize if summarize and summarize > 0 else 3
    return np.array2string(arr, separator=" ", threshold=threshold, edgeitems=edge, formatter=fmt,
                           max_line_width=10**9).replace("\n ", "\n ")


def _make_printer(parts, sep, end, stream, summarize):
    """parts: list of ('t', dtype) for tensor inputs or ('s', text)."""

    def printer(*values):
        it = iter(values)
        out = []
        for kind, x in parts:
            if kind == "s":
                out.append(x)
            else:
                out.append(format_value(next(it), x, summarize))
        f = stream if stream is not None else sys.stderr
        if f == "stdout":
            f = sys.stdout
        elif f == "stderr":
            f = sys.stderr
        print(sep.join(out), end=end, file=f)
        return None

    return printer


PRINT = ops.define("PrintV2", lambda i, a: [], lambda *vals, printer: printer(*vals), effect=True,
                   emit=lambda n, a, bind: f"{bind(n.attrs['printer'])}({', '.join(a)})")


def _struct_text(x):
    if isinstance(x, (list, tuple)):
        return None
    return str(x)


def print_(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """tf.print: prints at every execution (to stderr unless told otherwise)."""
    parts = []
    tensors = []
    for x in inputs:
        if isinstance(x, Tensor) or hasattr(x, "_as_tensor"):
            t = x if isinstance(x, Tensor) else x._as_tensor()
            parts.append(("t", t.dtype))
            tensors.append(t)
        elif isinstance(x, (list, tuple, dict)) and any(isinstance(y, Tensor) for y in nest.flatten(x)):
            # nested structures print like Python, with tensor values in place
            flat = nest.flatten(x)
            text_parts = []
            for y in flat:
                if isinstance(y, Tensor):
                    text_parts.append(("t", y.dtype))
                    tensors.append(y)
                else:
                    text_parts.append(("s", repr(y)))
            parts.append(("s", "["))
            for i, p in enumerate(text_parts):
                if i:
                    parts.append(("s", ", "))
                parts.append(p)
            parts.append(("s", "]"))
        else:
            parts.append(("s", str(x)))
    # merge string/tensor parts into one separator-joined line
    merged = []
    for i, p in enumerate(parts):
        merged.append(p)
    stream = output_stream
    if stream is sys.stdout:
        stream = "stdout"
    elif stream is sys.stderr or stream is None:
        stream = "stderr"
    printer = _make_printer(merged, sep, end, stream, summarize)
    if ctx.graph is None:
        printer(*[t._value for t in tensors])
        return None
    ins = [convert_to_tensor(t) for t in tensors]
    ops.apply(PRINT, ins, {"printer": printer})
    return None


def _py_func_kernel(*vals, func, in_dtypes, out_dtypes, single):
    args = [EagerTensor(v, d) for v, d in zip(vals, in_dtypes)]
    saved = ctx.graph
    ctx.graph = None
    try:
        res = func(*args)
    finally:
        ctx.graph = saved
    if not out_dtypes:
        return ()
    res_list = [res] if single else list(res)
    out = []
    for r, d in zip(res_list, out_dtypes):
        if isinstance(r, EagerTensor):
            v = r._value
            if d.np is not None and getattr(v, "dtype", None) != d._np_dtype:
                v = to_numpy(v, d)[0]
        else:
            v = to_numpy(r, d)[0]
        out.append(v)
    return out[0] if single else tuple(out)


def _py_func_infer(inputs, attrs):
    from .shapes import TensorShape

    return [(d, TensorShape(None)) for d in attrs["out_dtypes"]]


def _py_func_emit(n, a, bind):
    k = bind(lambda *v, _a=n.attrs: _py_func_kernel(*v, **_a))
    return f"{k}({', '.join(a)})"


PY_FUNC = ops.define("EagerPyFunc", _py_func_infer, _py_func_kernel, effect=True, emit=_py_func_emit)


def py_function(func, inp, Tout, name=None):  # noqa: N803 - TensorFlow's name
    """tf.py_function: run `func` (a Python function on eager tensors) at
    every execution."""
    single = not isinstance(Tout, (list, tuple))
    outs = [Tout] if single else list(Tout)
    out_dtypes = tuple(dt.as_dtype(d) for d in outs)
    ins = [convert_to_tensor(x) for x in (inp if isinstance(inp, (list, tuple)) else [inp])]
    attrs = {"func": func, "in_dtypes": tuple(t.dtype for t in ins), "out_dtypes": out_dtypes, "single": single}
    if ctx.graph is None:
        res = func(*ins)
        if not out_dtypes:
            return []
        if single:
            return convert_to_tensor(res, dtype=out_dtypes[0])
        return [convert_to_tensor(r, dtype=d) for r, d in zip(res, out_dtypes)]
    res = ops.apply(PY_FUNC, ins, attrs)
    if not out_dtypes:
        return []
    return res[0] if single else list(res)

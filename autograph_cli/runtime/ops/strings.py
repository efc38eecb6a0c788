"""String ops: tf.strings.join, as_string, length, upper, lower, strip, to_number,
regex_full_match, regex_replace, substr, split (elementwise over string tensors
of any shape; the values are bytes, or object arrays of bytes)."""
from __future__ import annotations

import codecs
import re

import numpy as np

from .. import dtypes as dt
from ..errors import InvalidArgumentError
from ..opdef import define
from ..shapes import TensorShape
from ._core import _t, apply, apply1, broadcast_shapes


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


def _as_string_kernel(x, precision=-1, scientific=False, shortest=False, width=-1, fill=""):
    def fmt(v):
        if isinstance(v, (bool, np.bool_)):
            text = "true" if v else "false"
        elif isinstance(v, (float, np.floating)):
            p = "" if precision < 0 else f".{precision}"
            text = ("%" + p + ("e" if scientific else "g" if shortest else "f")) % v
        else:
            text = str(v)
        if width > 0 and len(text) < width:
            text = (fill or " ") * (width - len(text)) + text if fill != "0" or not text.startswith("-") \
                else "-" + "0" * (width - len(text)) + text[1:]
        return text.encode()

    if np.ndim(x) == 0:
        return fmt(x.item() if hasattr(x, "item") else x)
    a = np.asarray(x)
    out = np.empty(a.shape, dtype=object)
    for idx in np.ndindex(a.shape):
        out[idx] = fmt(a[idx].item())
    return out


AS_STRING = define("AsString", lambda i, a: [(dt.string, i[0].shape)], _as_string_kernel,
                   sig="x, *, precision: int = -1, scientific: bool = False, shortest: bool = False, width: int = -1, "
                       "fill: str = ''")



def string_join(inputs, separator="", name=None):
    return apply1(STRJOIN, [_t(i, dtype=dt.string) for i in inputs], {"separator": separator})


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """tf.strings.as_string: each element as a string (floats: `precision` digits, scientific or
    shortest notation; `width` padded with `fill`)."""
    return apply1(AS_STRING, [_t(input)], {"precision": int(precision), "scientific": bool(scientific),
                                           "shortest": bool(shortest), "width": int(width), "fill": str(fill)})


# ------------------------------------------------------- elementwise string ops
def _elementwise(x, fn, otype=object):
    """fn applied to every bytes element of a string value (a bytes scalar or an object array)."""
    if isinstance(x, (bytes, str)) or np.ndim(x) == 0:
        v = x.item() if isinstance(x, np.ndarray) else x
        return fn(v.encode() if isinstance(v, str) else v)
    a = np.asarray(x, dtype=object)
    out = np.empty(a.shape, dtype=otype)
    for idx in np.ndindex(a.shape):
        out[idx] = fn(a[idx])
    return out


def _string_input(name):
    def infer(inputs, attrs):
        if inputs[0].dtype is not dt.string:
            raise TypeError(f"tf.strings.{name} expects a string tensor, got {inputs[0].dtype.name}")
        return inputs[0]
    return infer


def _utf8_chars(b):
    return sum(1 for c in b if (c & 0xC0) != 0x80)


def _length_infer(inputs, attrs):
    x = _string_input("length")(inputs, attrs)
    if attrs.get("unit") not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"tf.strings.length: unit must be 'BYTE' or 'UTF8_CHAR', got {attrs.get('unit')!r}")
    return [(dt.int32, x.shape)]


def _length_kernel(x, unit):
    f = len if unit == "BYTE" else _utf8_chars
    return np.asarray(_elementwise(x, f, np.int32), dtype=np.int32)


STRLEN = define("StringLength", _length_infer, _length_kernel, sig="x, *, unit: str")


def _same_infer(name):
    chk = _string_input(name)
    return lambda inputs, attrs: [(dt.string, chk(inputs, attrs).shape)]


def _case_kernel(method):
    def kernel(x, encoding):
        if encoding.lower().replace("-", "") == "utf8":
            return _elementwise(x, lambda b: getattr(b.decode("utf-8", "surrogateescape"), method)().encode(
                "utf-8", "surrogateescape"))
        return _elementwise(x, getattr(bytes, method))  # ASCII letters only, as TensorFlow's default
    return kernel


UPPER = define("StringUpper", _same_infer("upper"), _case_kernel("upper"), sig="x, *, encoding: str")
LOWER = define("StringLower", _same_infer("lower"), _case_kernel("lower"), sig="x, *, encoding: str")
STRIP = define("StringStrip", _same_infer("strip"), lambda x: _elementwise(x, bytes.strip), sig="x")


_TO_NUMBER_TYPES = ("float32", "float64", "int32", "int64")


def _to_number_infer(inputs, attrs):
    x = _string_input("to_number")(inputs, attrs)
    out = attrs["out_type"]
    if out.name not in _TO_NUMBER_TYPES:
        raise TypeError(f"tf.strings.to_number: out_type must be one of {', '.join(_TO_NUMBER_TYPES)}, "
                        f"got {out.name}")
    return [(out, x.shape)]


def _to_number_kernel(x, out_type):
    npt = out_type.np
    floating = out_type.name.startswith("float")
    info = None if floating else np.iinfo(npt)

    def conv(b):
        try:
            if b"_" in b:
                raise ValueError
            if floating:
                return float(b)
            v = int(b)
            if not info.min <= v <= info.max:
                raise ValueError
            return v
        except ValueError:
            raise InvalidArgumentError(None, "StringToNumber", "StringToNumberOp could not correctly convert "
                                       f"string: {b.decode('utf-8', 'replace')}") from None
    return np.asarray(_elementwise(x, conv), dtype=npt)


TO_NUMBER = define("StringToNumber", _to_number_infer, _to_number_kernel, sig="x, *, out_type: dtype")


def _decoded(b):
    return b.decode("utf-8", "surrogateescape")


def _encoded(s):
    return s.encode("utf-8", "surrogateescape")


def _compile(pattern, fn):
    p = pattern.decode("utf-8") if isinstance(pattern, bytes) else pattern
    try:
        return re.compile(p)
    except re.error as e:
        raise InvalidArgumentError(None, fn, f"Invalid pattern: {p}, error: {e}") from None


def _full_match_kernel(x, pattern):
    r = _compile(pattern, "RegexFullMatch")
    return np.asarray(_elementwise(x, lambda b: r.fullmatch(_decoded(b)) is not None, np.bool_), dtype=np.bool_)


def _full_match_infer(inputs, attrs):
    _compile(attrs["pattern"], "RegexFullMatch")
    return [(dt.bool, _string_input("regex_full_match")(inputs, attrs).shape)]


REGEX_FULL_MATCH = define("RegexFullMatch", _full_match_infer, _full_match_kernel, sig="x, *, pattern: bytes")


def _rewriter(rewrite):
    """RE2's rewrite string: \\0..\\9 name groups, \\\\ is a backslash; the rest is literal."""
    rw = rewrite.decode("utf-8") if isinstance(rewrite, bytes) else rewrite
    parts = []
    i = 0
    while i < len(rw):
        c = rw[i]
        if c == "\\" and i + 1 < len(rw) and (rw[i + 1].isdigit() or rw[i + 1] == "\\"):
            parts.append(int(rw[i + 1]) if rw[i + 1].isdigit() else "\\")
            i += 2
        else:
            parts.append(c)
            i += 1
    return lambda m: "".join(p if isinstance(p, str) else (m.group(p) or "") for p in parts)


def _regex_replace_kernel(x, pattern, rewrite, replace_global):
    r = _compile(pattern, "RegexReplace")
    fn = _rewriter(rewrite)
    n = 0 if replace_global else 1
    try:
        return _elementwise(x, lambda b: _encoded(r.sub(fn, _decoded(b), count=n)))
    except IndexError as e:
        raise InvalidArgumentError(None, "RegexReplace", f"Invalid rewrite pattern: {rewrite}: {e}") from None


def _regex_replace_infer(inputs, attrs):
    _compile(attrs["pattern"], "RegexReplace")
    return [(dt.string, _string_input("regex_replace")(inputs, attrs).shape)]


REGEX_REPLACE = define("RegexReplace", _regex_replace_infer, _regex_replace_kernel,
                       sig="x, *, pattern: bytes, rewrite: bytes, replace_global: bool")


def _substr_infer(inputs, attrs):
    x, pos, n = inputs
    _string_input("substr")(inputs, attrs)
    for t, what in ((pos, "pos"), (n, "len")):
        if not t.dtype.is_integer:
            raise TypeError(f"tf.strings.substr: {what} must be an integer tensor, got {t.dtype.name}")
    if attrs["unit"] not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"tf.strings.substr: unit must be 'BYTE' or 'UTF8_CHAR', got {attrs['unit']!r}")
    return [(dt.string, broadcast_shapes(broadcast_shapes(x.shape, pos.shape), n.shape))]


def _substr_one(b, pos, n, unit):
    s = _decoded(b) if unit == "UTF8_CHAR" else b
    size = len(s)
    if pos < -size or pos > size:
        raise InvalidArgumentError(None, "Substr", f"pos {pos} out of range for string b'{b.decode('utf-8', 'replace')}'"
                                   f" of length {size}")
    if pos < 0:
        pos += size
    out = s[pos:pos + max(int(n), 0)]
    return _encoded(out) if unit == "UTF8_CHAR" else out


def _substr_kernel(x, pos, n, unit):
    if np.ndim(x) == 0 and np.ndim(pos) == 0 and np.ndim(n) == 0:
        return _substr_one(x.item() if isinstance(x, np.ndarray) else x, int(pos), int(n), unit)
    xs, ps, ns = np.broadcast_arrays(np.asarray(x, dtype=object), np.asarray(pos), np.asarray(n))
    out = np.empty(xs.shape, dtype=object)
    for idx in np.ndindex(out.shape):
        out[idx] = _substr_one(xs[idx], int(ps[idx]), int(ns[idx]), unit)
    return out


SUBSTR = define("Substr", _substr_infer, _substr_kernel, sig="x, pos, n, *, unit: str")


def _split_infer(inputs, attrs):
    x = _string_input("split")(inputs, attrs)
    if x.shape.rank is None or x.shape.rank > 1:
        raise ValueError("tf.strings.split supports scalar and 1-D string tensors here "
                         f"(got shape {x.shape})")
    n = x.shape.as_list()[0] if x.shape.rank == 1 else 1
    return [(dt.string, TensorShape([None])), (dt.int64, TensorShape([None if n is None else n + 1]))]


def _split_one(b, sep, maxsplit):
    if sep is None:
        return b.split(None, maxsplit)
    if sep == b"" or sep == "":
        raise InvalidArgumentError(None, "StringSplitV2", "sep must not be empty")
    return b.split(sep.encode() if isinstance(sep, str) else sep, maxsplit)


def _split_kernel(x, sep, maxsplit):
    rows = [x] if isinstance(x, bytes) or np.ndim(x) == 0 else list(np.asarray(x, dtype=object))
    rows = [r.item() if isinstance(r, np.ndarray) else r for r in rows]
    pieces = [_split_one(r, sep, maxsplit) for r in rows]
    values = np.empty(sum(len(p) for p in pieces), dtype=object)
    values[:] = [v for p in pieces for v in p]
    splits = np.cumsum([0] + [len(p) for p in pieces]).astype(np.int64)
    return values, splits


SPLIT = define("StringSplitV2", _split_infer, _split_kernel, sig="x, *, sep: bytes | None, maxsplit: int")


# ------------------------------------------------------------- public functions
def _as_attr(v, what):
    """A pattern/rewrite/separator: a Python string, or an eager scalar string tensor."""
    if v is None or isinstance(v, (str, bytes)):
        return v
    if hasattr(v, "numpy"):
        try:
            return v.numpy()
        except Exception:
            pass
    raise TypeError(f"{what} must be a Python string (a static value), got {v!r}")


def length(input, unit="BYTE", name=None):
    return apply1(STRLEN, [_t(input, dtype=dt.string)], {"unit": unit})


def upper(input, encoding="", name=None):
    return apply1(UPPER, [_t(input, dtype=dt.string)], {"encoding": encoding})


def lower(input, encoding="", name=None):
    return apply1(LOWER, [_t(input, dtype=dt.string)], {"encoding": encoding})


def strip(input, name=None):
    return apply1(STRIP, [_t(input, dtype=dt.string)])


def to_number(string_tensor, out_type=dt.float32, name=None):
    return apply1(TO_NUMBER, [_t(string_tensor, dtype=dt.string)], {"out_type": dt.as_dtype(out_type)})


def regex_full_match(input, pattern, name=None):
    return apply1(REGEX_FULL_MATCH, [_t(input, dtype=dt.string)], {"pattern": _as_attr(pattern, "pattern")})


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    return apply1(REGEX_REPLACE, [_t(input, dtype=dt.string)],
                  {"pattern": _as_attr(pattern, "pattern"), "rewrite": _as_attr(rewrite, "rewrite"),
                   "replace_global": bool(replace_global)})


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 (TensorFlow's parameter name)
    return apply1(SUBSTR, [_t(input, dtype=dt.string), _t(pos, dtype_hint=dt.int32), _t(len, dtype_hint=dt.int32)],
                  {"unit": unit})


def split_parts(input, sep=None, maxsplit=-1):
    """tf.strings.split's pieces: (the input tensor, flat values, row_splits); the facade
    returns the values for a scalar and a RaggedTensor for a vector."""
    x = _t(input, dtype=dt.string)
    values, splits = apply(SPLIT, [x], {"sep": _as_attr(sep, "sep"), "maxsplit": int(maxsplit)})
    return x, values, splits


# ----------------------------------------- strings into characters, bytes or code points
_PIECE_UNITS = ("BYTE", "UTF8_CHAR", "CODE_POINT", "CODE_POINT_OFFSET")


def _pieces_infer(inputs, attrs):
    x = _string_input("unicode_decode")(inputs, attrs)
    if x.shape.rank is None or x.shape.rank > 1:
        raise ValueError("tf.strings.bytes_split/unicode_split/unicode_decode support scalar and 1-D string "
                         f"tensors here (got shape {x.shape})")
    if attrs["unit"] not in _PIECE_UNITS:
        raise ValueError(f"unit must be one of {_PIECE_UNITS}, got {attrs['unit']!r}")
    n = x.shape.as_list()[0] if x.shape.rank == 1 else 1
    out = {"CODE_POINT": dt.int32, "CODE_POINT_OFFSET": dt.int64}.get(attrs["unit"], dt.string)
    return [(out, TensorShape([None])), (dt.int64, TensorShape([None if n is None else n + 1]))]


def python_codec(encoding):
    """The Python codec of a TensorFlow encoding name (UTF-8, UTF8, UTF-16-BE, UTF-32-BE ...)."""
    name = str(encoding)
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise InvalidArgumentError(None, "UnicodeDecode", f"Could not create converter for input encoding: "
                                   f"{name}") from None


_ERRORS = {"replace": "replace", "ignore": "ignore", "strict": "strict"}


def _decode_text(b, encoding, errors, replacement_char):
    try:
        text = b.decode(encoding, _ERRORS.get(errors, "replace"))
    except UnicodeDecodeError as e:
        raise InvalidArgumentError(None, "UnicodeDecode", f"Invalid formatting on input string: {e}") from None
    if errors == "replace" and replacement_char != 0xFFFD:
        text = text.replace("\ufffd", chr(replacement_char))
    return text


def _pieces_one(b, unit, encoding="utf-8", errors="strict", replacement_char=0xFFFD):
    if unit == "BYTE":
        return [b[i:i + 1] for i in range(len(b))]
    text = _decode_text(b, encoding, errors, replacement_char)
    if unit == "CODE_POINT":
        return [ord(c) for c in text]
    if unit == "CODE_POINT_OFFSET":  # each character's byte offset in the encoded input
        offsets, at = [], 0
        for c in text:
            offsets.append(at)
            at += len(c.encode(encoding, "replace"))
        return offsets
    return [c.encode("utf-8") for c in text]


def _pieces_kernel(x, unit, encoding="utf-8", errors="strict", replacement_char=0xFFFD):
    rows = [x] if isinstance(x, bytes) or np.ndim(x) == 0 else list(np.asarray(x, dtype=object))
    rows = [r.item() if isinstance(r, np.ndarray) else r for r in rows]
    pieces = [_pieces_one(r.encode() if isinstance(r, str) else r, unit, encoding, errors, replacement_char)
              for r in rows]
    flat = [v for p in pieces for v in p]
    if unit in ("CODE_POINT", "CODE_POINT_OFFSET"):
        values = np.asarray(flat, dtype=np.int32 if unit == "CODE_POINT" else np.int64).reshape(-1)
    else:
        values = np.empty(len(flat), dtype=object)
        values[:] = flat
    splits = np.cumsum([0] + [len(p) for p in pieces]).astype(np.int64)
    return values, splits


PIECES = define("StringPieces", _pieces_infer, _pieces_kernel,
                sig="x, *, unit: str, encoding: str, errors: str, replacement_char: int")


def pieces(input, unit, encoding="UTF-8", errors="replace", replacement_char=65533):  # noqa: A002
    """(the input, flat pieces, row_splits) of tf.strings.bytes_split (unit BYTE),
    unicode_split (UTF8_CHAR), unicode_decode (CODE_POINT) and the byte offsets of
    unicode_decode_with_offsets (CODE_POINT_OFFSET)."""
    x = _t(input, dtype=dt.string)
    values, splits = apply(PIECES, [x], {"unit": unit, "encoding": python_codec(encoding), "errors": str(errors),
                                         "replacement_char": int(replacement_char)})
    return x, values, splits


def _encode_infer(inputs, attrs):
    if not inputs[0].dtype.is_integer:
        raise TypeError(f"tf.strings.unicode_encode expects int32 code points, got {inputs[0].dtype.name}")
    n = inputs[1].shape.as_list()[0] if inputs[1].shape.rank == 1 else None
    return [(dt.string, TensorShape([None if n is None else n - 1]))]


def _encode_kernel(values, splits, encoding, errors, replacement_char):
    out = np.empty(len(splits) - 1, dtype=object)
    for i in range(len(splits) - 1):
        chars = []
        for cp in np.asarray(values[splits[i]:splits[i + 1]]).tolist():
            if 0 <= cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF:
                chars.append(chr(cp))
            elif errors == "strict":
                raise InvalidArgumentError(None, "UnicodeEncode", f"Invalid code point: {cp}")
            elif errors == "replace":
                chars.append(chr(replacement_char))
        out[i] = "".join(chars).encode(encoding)
    return out


UNICODE_ENCODE = define("UnicodeEncode", _encode_infer, _encode_kernel,
                        sig="values, splits, *, encoding: str, errors: str, replacement_char: int")


def unicode_encode_rows(values, splits, output_encoding, errors="replace", replacement_char=65533):
    """One encoded string per row of code points (flat values, row_splits)."""
    return apply1(UNICODE_ENCODE, [_t(values), _t(splits)], {
        "encoding": python_codec(output_encoding), "errors": str(errors), "replacement_char": int(replacement_char)})


def _transcode_kernel(x, input_encoding, output_encoding, errors, replacement_char):
    return _elementwise(x, lambda b: _decode_text(b, input_encoding, errors, replacement_char).encode(
        output_encoding, "replace"))


TRANSCODE = define("UnicodeTranscode", _same_infer("unicode_transcode"), _transcode_kernel,
                   sig="x, *, input_encoding: str, output_encoding: str, errors: str, replacement_char: int")


def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                      replace_control_characters=False, name=None):
    """tf.strings.unicode_transcode: each string decoded from one encoding and encoded in another."""
    return apply1(TRANSCODE, [_t(input, dtype=dt.string)], {
        "input_encoding": python_codec(input_encoding), "output_encoding": python_codec(output_encoding),
        "errors": str(errors), "replacement_char": int(replacement_char)})


def _decode_raw_infer(inputs, attrs):
    x = _string_input("decode_raw")(inputs, attrs)
    rank = x.shape.rank
    return [(attrs["out_type"], TensorShape(None if rank is None else [*x.shape.dims, None]))]


def _decode_raw_kernel(x, out_type, little_endian):
    order = "<" if little_endian else ">"
    np_type = np.dtype(out_type.np).newbyteorder(order)
    if isinstance(x, bytes) or np.ndim(x) == 0:
        b = x.item() if isinstance(x, np.ndarray) else x
        return np.frombuffer(b, dtype=np_type).astype(out_type.np)
    a = np.asarray(x, dtype=object)
    rows = [np.frombuffer(a[idx], dtype=np_type).astype(out_type.np) for idx in np.ndindex(a.shape)]
    if len({r.size for r in rows}) > 1:
        raise InvalidArgumentError(None, "DecodeRaw", "DecodeRaw requires input strings to all be the same size")
    width = rows[0].size if rows else 0
    return np.stack(rows).reshape(*a.shape, width) if rows else np.zeros((*a.shape, 0), out_type.np)


DECODE_RAW = define("DecodeRaw", _decode_raw_infer, _decode_raw_kernel,
                    sig="x, *, out_type: dtype, little_endian: bool")


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """tf.io.decode_raw: each string's bytes read as numbers of ``out_type``."""
    if fixed_length is not None:
        raise NotImplementedError("tf.io.decode_raw: fixed_length is not supported")
    return apply1(DECODE_RAW, [_t(input_bytes, dtype=dt.string)],
                  {"out_type": dt.as_dtype(out_type), "little_endian": bool(little_endian)})


# ------------------------------------------------------------ reduce_join, ngrams
def _reduce_join_infer(inputs, attrs):
    x = _string_input("reduce_join")(inputs, attrs)
    axis, keep = attrs["axis"], attrs["keepdims"]
    if x.shape.rank is None:
        return [(dt.string, TensorShape(None))]
    dims = list(x.shape.dims)
    axes = range(len(dims)) if axis is None else [a % max(len(dims), 1) for a in axis]
    out = [1 if i in axes else d for i, d in enumerate(dims)] if keep else \
        [d for i, d in enumerate(dims) if i not in axes]
    return [(dt.string, TensorShape(out))]


def _reduce_join_kernel(x, axis, keepdims, separator):
    a = np.asarray(x, dtype=object)
    sep = separator.encode() if isinstance(separator, str) else separator
    axes = tuple(range(a.ndim)) if axis is None else tuple(ax % max(a.ndim, 1) for ax in axis)
    if a.ndim == 0:
        return a.item()
    moved = np.moveaxis(a, axes, tuple(range(a.ndim - len(axes), a.ndim)))
    kept = moved.shape[:a.ndim - len(axes)]
    flat = moved.reshape(kept + (-1,))
    out = np.empty(kept, dtype=object)
    for idx in np.ndindex(kept):
        out[idx] = sep.join(flat[idx])
    if keepdims:
        out = out.reshape([1 if i in axes else d for i, d in enumerate(a.shape)])
    return out if out.ndim else out.item()


REDUCE_JOIN = define("ReduceJoin", _reduce_join_infer, _reduce_join_kernel,
                     sig="x, *, axis: any, keepdims: bool, separator: bytes")


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """tf.strings.reduce_join: the strings joined (with `separator`) along `axis` (all axes: None)."""
    x = _t(inputs, dtype=dt.string)
    if axis is not None:
        axis = tuple(int(a) for a in np.atleast_1d(np.asarray(axis.numpy() if hasattr(axis, "numpy") else axis)))
    sep = separator.encode() if isinstance(separator, str) else separator
    return apply1(REDUCE_JOIN, [x], {"axis": axis, "keepdims": bool(keepdims), "separator": sep})


def _ngrams_infer(inputs, attrs):
    _string_input("ngrams")(inputs, attrs)
    return [(dt.string, TensorShape([None])), (dt.int64, inputs[1].shape)]


def _ngrams_kernel(values, splits, width, separator, pad_left, pad_right, padding_width, preserve_short):
    out, new_splits = [], [0]
    for r in range(len(splits) - 1):
        row = list(values[splits[r]:splits[r + 1]])
        if pad_left is not None:
            pw = width - 1 if padding_width is None or padding_width < 0 else padding_width
            row = [pad_left] * pw + row + [pad_right] * pw
        grams = [separator.join(row[i:i + width]) for i in range(len(row) - width + 1)]
        if not grams and preserve_short and row:
            grams = [separator.join(row)]
        out.extend(grams)
        new_splits.append(len(out))
    values_out = np.empty(len(out), dtype=object)
    values_out[:] = out
    return values_out, np.asarray(new_splits, np.int64)


NGRAMS = define("StringNGrams", _ngrams_infer, _ngrams_kernel,
                sig="values, splits, *, width: int, separator: bytes, pad_left: any, pad_right: any, "
                    "padding_width: any, preserve_short: bool")


def ngram_rows(values, splits, ngram_width, separator=" ", pad_values=None, padding_width=None,
               preserve_short_sequences=False):
    """(flat n-grams, their row_splits) of the rows (flat string values, row_splits)."""
    sep = separator.encode() if isinstance(separator, str) else separator
    if isinstance(pad_values, (tuple, list)):
        left, right = pad_values
    else:
        left = right = pad_values
    enc = (lambda v: v.encode() if isinstance(v, str) else v)
    out, new_splits = apply(NGRAMS, [_t(values, dtype=dt.string), _t(splits)], {
        "width": int(ngram_width), "separator": sep, "pad_left": enc(left), "pad_right": enc(right),
        "padding_width": padding_width, "preserve_short": bool(preserve_short_sequences)})
    return out, new_splits


def _segment_join_kernel(values, splits, separator):
    out = np.empty(len(splits) - 1, dtype=object)
    for r in range(len(splits) - 1):
        out[r] = separator.join(values[splits[r]:splits[r + 1]])
    return out


SEGMENT_JOIN = define("StringRowJoin", lambda i, a: [(dt.string, TensorShape([None]))], _segment_join_kernel,
                      sig="values, splits, *, separator: bytes")


def join_rows(values, splits, separator=""):
    """One string per row of (flat string values, row_splits): the row's strings joined."""
    sep = separator.encode() if isinstance(separator, str) else separator
    return apply1(SEGMENT_JOIN, [_t(values, dtype=dt.string), _t(splits)], {"separator": sep})

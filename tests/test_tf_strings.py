"""tf.strings' elementwise ops: eager and staged (tf.function) against a plain
Python reference, on scalars, vectors and matrices of ASCII, non-ASCII and
raw-bytes strings."""
from __future__ import annotations

import re

import numpy as np
import pytest

import autograph_cli.tf as tf
from autograph_cli.runtime.errors import InvalidArgumentError

TEXTS = [
    "Hello, World",
    "  padded\t\n",
    "",
    "héllo wörld",
    "日本語 text",
    "MiXeD 123",
]
RAW = ["caf\xe9".encode("latin-1"), b"\xff\xfe ab"]  # not valid UTF-8


def _shapes(items):
    """The same strings as a scalar, a vector and a 2x2 matrix."""
    b = [s.encode() if isinstance(s, str) else s for s in items]
    yield b[0]
    yield b
    if len(b) >= 4:
        yield np.array(b[:4], dtype=object).reshape(2, 2)


def _ref(fn, x, otype=object):
    if isinstance(x, bytes):
        return fn(x)
    a = np.asarray(x, dtype=object)
    out = np.empty(a.shape, dtype=otype)
    for idx in np.ndindex(a.shape):
        out[idx] = fn(a[idx])
    return out


def _check(op, ref, x, otype=object):
    """op(x) eagerly, op(x) inside a tf.function, and the reference agree."""
    expected = _ref(ref, x, otype)
    eager = op(tf.constant(x)).numpy()
    staged = tf.function(op)(tf.constant(x)).numpy()
    for got in (eager, staged):
        assert np.shape(got) == np.shape(expected)
        assert np.asarray(got).tolist() == np.asarray(expected).tolist(), (got, expected)


def _utf8_len(b):
    return len(b.decode("utf-8"))


CASES = [
    (lambda s: tf.strings.length(s), len, np.int32),
    (lambda s: tf.strings.length(s, unit="UTF8_CHAR"), _utf8_len, np.int32),
    (tf.strings.upper, lambda b: bytes(c - 32 if 97 <= c <= 122 else c for c in b), object),
    (tf.strings.lower, lambda b: bytes(c + 32 if 65 <= c <= 90 else c for c in b), object),
    (lambda s: tf.strings.upper(s, encoding="utf-8"), lambda b: b.decode().upper().encode(), object),
    (tf.strings.strip, lambda b: b.strip(b" \t\n\r\x0b\x0c"), object),
    (lambda s: tf.strings.regex_full_match(s, r"[\w ]+"),
     lambda b: re.fullmatch(r"[\w ]+", b.decode()) is not None, np.bool_),
    (lambda s: tf.strings.regex_replace(s, r"(l+)", r"<\1>"),
     lambda b: re.sub(r"(l+)", r"<\1>", b.decode()).encode(), object),
    (lambda s: tf.strings.regex_replace(s, "[aeiouö]", "_", replace_global=False),
     lambda b: re.sub("[aeiouö]", "_", b.decode(), count=1).encode(), object),
    (lambda s: tf.strings.substr(s, 0, 3), lambda b: b[:3], object),
    (lambda s: tf.strings.substr(s, 0, 2, unit="UTF8_CHAR"), lambda b: b.decode()[:2].encode(), object),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("shape", ["scalar", "vector", "matrix"])
def test_elementwise_op_matches_python(case, shape):
    op, ref, otype = CASES[case]
    x = list(_shapes(TEXTS))[["scalar", "vector", "matrix"].index(shape)]
    _check(op, ref, x, otype)


def test_byte_ops_on_invalid_utf8():
    for op, ref, otype in [(tf.strings.length, len, np.int32), (tf.strings.upper, bytes.upper, object),
                           (lambda s: tf.strings.substr(s, 1, 2), lambda b: b[1:3], object)]:
        _check(op, ref, RAW, otype)


def test_substr_negative_pos_and_broadcast_and_out_of_range():
    x = tf.constant(["hello", "world"])
    assert tf.strings.substr(x, -3, 10).numpy().tolist() == [b"llo", b"rld"]
    assert tf.strings.substr(x, tf.constant([0, 2]), tf.constant([1, 2])).numpy().tolist() == [b"h", b"rl"]
    with pytest.raises(InvalidArgumentError, match="out of range"):
        tf.strings.substr(x, 6, 1)
    with pytest.raises(InvalidArgumentError, match="out of range"):
        tf.function(lambda s: tf.strings.substr(s, -6, 1))(x)


@pytest.mark.parametrize("out_type", [tf.float32, tf.float64, tf.int32, tf.int64])
def test_to_number(out_type):
    texts = ["12", "-7", " 3 ", "0"] if out_type.is_integer else ["1.5", "-2e3", "0.125", "inf"]
    expected = np.array([(int if out_type.is_integer else float)(t) for t in texts], dtype=out_type.as_numpy_dtype)
    for got in (tf.strings.to_number(tf.constant(texts), out_type),
                tf.function(lambda s: tf.strings.to_number(s, out_type))(tf.constant(texts))):
        assert got.dtype == out_type
        np.testing.assert_array_equal(got.numpy(), expected)


def test_to_number_default_is_float32_and_refuses_bad_strings():
    assert tf.strings.to_number("2.5").dtype == tf.float32
    for bad, out in [("abc", tf.float32), ("1.5", tf.int32), ("1_000", tf.int64), ("", tf.float32),
                     ("99999999999", tf.int32)]:
        with pytest.raises(InvalidArgumentError, match="StringToNumberOp could not correctly convert string"):
            tf.strings.to_number(bad, out)
    with pytest.raises(InvalidArgumentError, match="abc"):
        tf.function(lambda s: tf.strings.to_number(s))(tf.constant(["1", "abc"]))


def test_regex_rewrite_is_re2_style():
    # \\1 a group, \\\\ a backslash, other characters (\\n included) literal
    x = tf.constant(["ab-cd"])
    assert tf.strings.regex_replace(x, r"(\w+)-(\w+)", r"\2\\\1").numpy().tolist() == [b"cd\\ab"]
    assert tf.strings.regex_replace(x, "-", r"\n").numpy().tolist() == [b"ab\\ncd"]


def test_split_scalar_and_vector_eager_and_staged():
    assert tf.strings.split("a,b,,c", ",").numpy().tolist() == [b"a", b"b", b"", b"c"]
    assert tf.strings.split("  a  b ").numpy().tolist() == [b"a", b"b"]
    assert tf.strings.split("a,b,c", ",", maxsplit=1).numpy().tolist() == [b"a", b"b,c"]
    rows = ["x y", "", "héllo  wörld z"]
    r = tf.strings.split(tf.constant(rows))
    assert isinstance(r, tf.RaggedTensor)
    assert r.values.numpy().tolist() == [p.encode() for s in rows for p in s.split()]
    assert r.row_splits.numpy().tolist() == [0, 2, 2, 5]

    @tf.function
    def f(s):
        parts = tf.strings.split(s[0], ",")
        return parts, tf.strings.to_number(parts[1]), tf.strings.split(s)

    parts, num, rag = f(tf.constant(["k,2.5", "a b"]))
    assert parts.numpy().tolist() == [b"k", b"2.5"] and float(num) == 2.5
    assert rag.row_splits.numpy().tolist() == [0, 1, 3]


def test_in_a_dataset_map():
    ds = tf.data.Dataset.from_tensor_slices([" 1 ", "22", "héllo"]).map(
        lambda s: (tf.strings.length(tf.strings.strip(s), unit="UTF8_CHAR"), tf.strings.upper(s)))
    assert [(int(n), u) for n, u in ds.as_numpy_iterator()] == [(1, b" 1 "), (2, b"22"), (5, "HéLLO".encode())]


def test_non_string_input_is_refused():
    with pytest.raises((TypeError, ValueError), match="string"):
        tf.strings.upper(tf.constant([1, 2]))
    with pytest.raises((TypeError, ValueError), match="string"):
        tf.function(lambda x: tf.strings.length(x))(tf.constant([1.0]))


def test_jit_compile_refusal_names_the_string_op():
    def f(n):
        return n + tf.strings.length(tf.strings.substr(tf.constant("abcd"), 0, n))

    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.function(f, jit_compile=True)(tf.constant(1))
    msg = str(e.value)
    assert "cannot be compiled with jit_compile=True" in msg and "op 'Substr'" in msg, msg
    assert "string" in msg
    # a string op on constants only is folded away: nothing left to refuse
    g = tf.function(lambda n: n + tf.strings.length(tf.constant("abc")), jit_compile=True)
    assert int(g(tf.constant(1))) == 4

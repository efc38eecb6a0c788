"""TensorFlow's Philox4x32-10 counter-based generator and its CPU
distributions, bit for bit: the stateless random ops (tf.random.stateless_*)
and tf.random.Generator draw the numbers TensorFlow's CPU kernels draw for
the same seed (integers exactly; floats as TensorFlow computes them: sin,
cos and log correctly rounded to float32, as glibc's are).

A Philox call maps a 128-bit counter and a 64-bit key to four uint32 words.
Fixed-cost distributions (uniform, normal, integers) take output group g
from the call at counter + g; truncated normal rejects samples, so each
group of outputs reads its own run of 256 calls (TensorFlow's reserved
samples per output group). A stateful draw of n values advances the counter
by 256 * n, as TensorFlow's generator kernels do.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["key_counter_from_seed", "sample", "STATE_SKIP_PER_OUTPUT"]

_M32 = np.uint64(0xFFFFFFFF)
_MUL_A, _MUL_B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W_A, _W_B = 0x9E3779B9, 0xBB67AE85
#: a stateful draw of n values moves the counter by n * 256
STATE_SKIP_PER_OUTPUT = 256


def _philox(c0, c1, c2, c3, k0, k1):
    """Ten Philox rounds over arrays of counter words (uint64 holding uint32 values)."""
    k0, k1 = int(k0), int(k1)
    for r in range(10):
        p0, p1 = _MUL_A * c0, _MUL_B * c2
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0), p1 & _M32,
                          (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1), p0 & _M32)
        if r < 9:
            k0, k1 = (k0 + _W_A) & 0xFFFFFFFF, (k1 + _W_B) & 0xFFFFFFFF
    return c0, c1, c2, c3


def _blocks(counter, key, start, count):
    """[count, 4] uint32 words of the calls at counter + start .. counter + start + count - 1
    (`counter`: a 128-bit int; `key`: a 64-bit int)."""
    base = counter + start
    lo = np.uint64(base & 0xFFFFFFFFFFFFFFFF) + np.arange(count, dtype=np.uint64)  # wraps modulo 2**64
    carry = (lo < np.uint64(base & 0xFFFFFFFFFFFFFFFF)).astype(np.uint64)
    hi = np.uint64((base >> 64) & 0xFFFFFFFFFFFFFFFF) + carry
    words = _philox(lo & _M32, lo >> np.uint64(32), hi & _M32, hi >> np.uint64(32), key & 0xFFFFFFFF, key >> 32)
    return np.stack(words, axis=-1).astype(np.uint32)


def key_counter_from_seed(seed0, seed1):
    """(key, counter) of the stateless ops for a seed pair (TensorFlow scrambles the seed with one
    Philox call under a fixed key)."""
    s0, s1 = int(seed0) & 0xFFFFFFFFFFFFFFFF, int(seed1) & 0xFFFFFFFFFFFFFFFF
    c = [np.array([w], np.uint64) for w in (s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32)]
    m = [int(w[0]) for w in _philox(*c, 0x3EC8F720, 0x02461E29)]
    return m[0] | m[1] << 32, (m[2] | m[3] << 32) << 64


def _u32_to_float(x):
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1.0)


def _u64_to_double(hi, lo):
    man = ((hi.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | lo.astype(np.uint64)
    return (man | np.uint64(1023 << 52)).view(np.float64) - 1.0


_sin, _cos, _log = np.vectorize(math.sin), np.vectorize(math.cos), np.vectorize(math.log)


def _box_muller_float(x0, x1):
    u1 = np.maximum(_u32_to_float(x0), np.float32(1e-7))
    v1 = (2.0 * math.pi * _u32_to_float(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt((np.float32(-2.0) * _log(u1.astype(np.float64)).astype(np.float32)).astype(np.float64)).astype(
        np.float32)
    v = v1.astype(np.float64)
    return _sin(v).astype(np.float32) * u2, _cos(v).astype(np.float32) * u2


def _box_muller_double(x0, x1, x2, x3):
    u1 = np.maximum(_u64_to_double(x0, x1), 1e-20)
    v1 = 2.0 * math.pi * _u64_to_double(x2, x3)
    u2 = np.sqrt(-2.0 * _log(u1))
    return _sin(v1) * u2, _cos(v1) * u2


def _fixed(kind, dtype, words, lo=None, hi=None):
    """The values of fixed-cost groups (one Philox call each) in output order."""
    w = [words[:, i] for i in range(4)]
    if kind == "uniform" and dtype.kind == "f":
        if dtype == np.float64:
            return np.stack([_u64_to_double(w[0], w[1]), _u64_to_double(w[2], w[3])], -1).reshape(-1)
        return _u32_to_float(words).reshape(-1).astype(dtype)
    if kind == "normal":
        if dtype == np.float64:
            return np.stack(_box_muller_double(*w), -1).reshape(-1)
        a, b = _box_muller_float(w[0], w[1])
        c, d = _box_muller_float(w[2], w[3])
        return np.stack([a, b, c, d], -1).reshape(-1).astype(dtype)
    # integers: 32-bit types take one word per value, 64-bit types two (low word first)
    if dtype.itemsize == 8:
        bits = words[:, 0::2].astype(np.uint64) | (words[:, 1::2].astype(np.uint64) << np.uint64(32))
    else:
        bits = words.astype(np.uint64)
    bits = bits.reshape(-1)
    if kind == "full_int":
        return bits.astype(np.uint64 if dtype.itemsize == 8 else np.uint32).view(
            np.dtype(dtype).newbyteorder("=")) if False else _wrap(bits, dtype)
    span = (int(hi) - int(lo)) & (0xFFFFFFFFFFFFFFFF if dtype.itemsize == 8 else 0xFFFFFFFF)
    if span == 0:
        raise ValueError("Need minval < maxval")
    return _wrap(np.uint64(int(lo) & 0xFFFFFFFFFFFFFFFF) + bits % np.uint64(span), dtype)


def _wrap(bits, dtype):
    """uint64 bits as a (possibly signed) integer dtype, keeping the low bits."""
    width = np.dtype(dtype).itemsize * 8
    unsigned = np.dtype(f"uint{width}")
    return bits.astype(unsigned).view(dtype) if width < 64 else bits.view(np.int64).astype(dtype) \
        if np.dtype(dtype).kind == "i" else bits.astype(dtype)


def _per_group(kind, dtype):
    if kind in ("uniform", "full_int") and np.dtype(dtype).kind in "iu":
        return 2 if np.dtype(dtype).itemsize == 8 else 4
    return 2 if np.dtype(dtype) == np.float64 else 4


def _truncated(dtype, counter, key, n):
    """Truncated normal values: output group g draws single samples from the calls at
    counter + g * 256 on, keeping the Box-Muller values within two standard deviations."""
    per = 2 if dtype == np.float64 else 4
    groups = -(-n // per)
    out = np.empty(groups * per, dtype=np.float64 if dtype == np.float64 else np.float32)
    skip = per * STATE_SKIP_PER_OUTPUT // 4
    for g in range(groups):
        got, call = [], 0
        while len(got) < per:
            words = _blocks(counter, key, g * skip + call, 8)
            call += 8
            flat = words.reshape(-1)
            need = 4 if dtype == np.float64 else 2
            for i in range(0, len(flat) - need + 1, need):
                vals = (_box_muller_double(*[flat[i + j:i + j + 1] for j in range(4)]) if need == 4
                        else _box_muller_float(flat[i:i + 1], flat[i + 1:i + 2]))
                for v in vals:
                    if abs(float(v[0])) < 2.0 and len(got) < per:
                        got.append(v[0])
                if len(got) >= per:
                    break
        out[g * per:(g + 1) * per] = got
    return out[:n]


def sample(kind, shape, dtype, key, counter, lo=None, hi=None):
    """A [shape] array of `kind` ("uniform", "normal", "truncated", "full_int"; "uniform" of an
    integer dtype draws from [lo, hi)) from the Philox calls at `counter` under `key`."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    compute = np.float32 if dtype.kind == "f" and dtype.itemsize < 4 else dtype
    if kind == "truncated":
        flat = _truncated(compute, counter, key, n)
    else:
        per = _per_group(kind, compute)
        words = _blocks(counter, key, 0, -(-n // per)) if n else np.zeros((0, 4), np.uint32)
        flat = _fixed(kind, compute, words, lo, hi)[:n]
    return flat.astype(dtype).reshape(tuple(shape))

"""Categorical preprocessing layers: CategoryEncoding (one_hot / multi_hot /
count of integer ids, built from one_hot and reductions, so it runs in graphs),
Discretization (bucket ids by boundaries, given or learned by `adapt` from
quantiles) and Hashing (string or integer values to bins by a stable 64-bit
hash; not TensorFlow's FarmHash, so the bins differ from Keras')."""
from __future__ import annotations

import hashlib

import numpy as np

from autograph_cli.runtime import dtypes as dt
from autograph_cli.runtime import ops
from autograph_cli.runtime.effects import numpy_function
from autograph_cli.runtime.ops import array as array_ops
from autograph_cli.runtime.tensor import SymbolicTensor, Tensor

from ._layer import Layer
from ._text import _values

__all__ = ["CategoryEncoding", "Discretization", "Hashing"]

_MODES = ("one_hot", "multi_hot", "count")


def _tensor(x):
    return x if isinstance(x, Tensor) else ops.convert_to_tensor(x)


def _encode(ids, depth, mode, dtype, count_weights=None):
    """Integer ids (rank 0-2) as one_hot / multi_hot / count vectors of `depth`, as Keras encodes
    categorical inputs: a scalar is one sample; one_hot adds the token axis unless the last one is 1."""
    if ids.shape.rank == 0:
        ids = ops.expand_dims(ids, -1)
    if mode == "one_hot" and ids.shape.dims[-1] != 1:
        ids = ops.expand_dims(ids, -1)
    if ids.shape.rank > 2:
        raise ValueError(f"When output_mode is not 'int', maximum supported output rank is 2. Received "
                         f"output_mode {mode} and input shape {ids.shape}, which would result in output rank "
                         f"{ids.shape.rank}.")
    hot = array_ops.one_hot(ops.cast(ids, dt.int64), depth, dtype=dtype)  # (..., k, depth)
    if mode == "count":
        if count_weights is not None:
            hot = hot * ops.expand_dims(ops.cast(_tensor(count_weights), dtype), -1)
        return ops.reduce_sum(hot, axis=-2)
    return ops.reduce_max(hot, axis=-2)


class CategoryEncoding(Layer):
    """Encodes integer ids in [0, num_tokens) as one_hot, multi_hot or count vectors."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if int(num_tokens) < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if output_mode not in _MODES:
            raise ValueError(f"Unknown arg for output_mode: {output_mode}. Expected one of {list(_MODES)}")
        if sparse:
            raise NotImplementedError("CategoryEncoding(sparse=True) is not supported by this runtime")
        self.num_tokens = int(num_tokens)
        self.output_mode = output_mode
        self.sparse = False

    def call(self, inputs, count_weights=None):
        if count_weights is not None and self.output_mode != "count":
            raise ValueError(f"`count_weights` is not used when `output_mode` is not 'count'. Received "
                             f"output_mode={self.output_mode}.")
        x = _tensor(inputs)
        if not isinstance(x, SymbolicTensor):
            values = x.numpy()
            if values.size and (values.min() < 0 or values.max() >= self.num_tokens):
                raise ValueError(f"Input values must be in the range 0 <= values < num_tokens with "
                                 f"num_tokens={self.num_tokens}")
        return _encode(x, self.num_tokens, self.output_mode, self.dtype, count_weights)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        if not shape:
            return (self.num_tokens,)
        if self.output_mode == "one_hot" and shape[-1] != 1:
            return tuple(shape) + (self.num_tokens,)
        return tuple(shape[:-1]) + (self.num_tokens,)

    def get_config(self):
        return {**super().get_config(), "num_tokens": self.num_tokens, "output_mode": self.output_mode,
                "sparse": self.sparse}


def _quantile_boundaries(values, num_bins, epsilon):
    """`num_bins - 1` boundaries splitting sorted `values` into equally weighted parts: a summary of
    about 1/epsilon sampled values, then the values at cumulative weights 1/num_bins, 2/num_bins, ...
    interpolated (the approximate quantiles Keras' Discretization learns)."""
    values = np.sort(np.asarray(values, np.float64).reshape(-1))
    if values.size == 0:
        raise ValueError("Discretization.adapt received no data")
    step = max(int(values.size * epsilon), 1)
    start = int(values.size * epsilon)
    sampled = values[start::step]
    cum = np.cumsum(np.full(sampled.shape, float(step)))
    if sampled.size * (1.0 / num_bins) < 1:
        return sampled.tolist()[:-1]
    percents = (np.arange(num_bins) + 1.0) / num_bins
    bins = np.interp(percents, cum / cum[-1], sampled)
    return bins[:-1].astype(np.float32).tolist()


class Discretization(Layer):
    """Bucket ids of numbers: bin i holds boundaries[i-1] <= x < boundaries[i]."""

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False,
                 **kwargs):
        kwargs.setdefault("dtype", "int64" if output_mode == "int" else None)
        super().__init__(**kwargs)
        if bin_boundaries is not None and num_bins is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. Received: "
                             f"num_bins={num_bins} and bin_boundaries={bin_boundaries}")
        if output_mode not in ("int",) + _MODES:
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        self.bin_boundaries = None if bin_boundaries is None else [float(b) for b in bin_boundaries]
        self.num_bins = num_bins
        self.epsilon = float(epsilon)
        self.output_mode = output_mode
        self.sparse = bool(sparse)

    def adapt(self, data, batch_size=None, steps=None):
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized with "
                             "`bin_boundaries`, use `num_bins` instead.")
        self.bin_boundaries = _quantile_boundaries(_values(data).astype(np.float64), int(self.num_bins),
                                                   self.epsilon)

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("Discretization has no bin boundaries: give `bin_boundaries` or call `adapt` first")
        x = _tensor(inputs)
        if not x.dtype.is_floating:
            x = ops.cast(x, dt.float64)
        bounds = ops.convert_to_tensor(np.asarray(self.bin_boundaries, x.dtype.np))
        ids = ops.reduce_sum(ops.cast(ops.expand_dims(x, -1) >= bounds, dt.int64), axis=-1)
        if self.output_mode == "int":
            return ids
        return _encode(ids, len(self.bin_boundaries) + 1, self.output_mode, dt.float32)

    def get_config(self):
        return {**super().get_config(), "bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                "epsilon": self.epsilon, "output_mode": self.output_mode, "sparse": self.sparse}


def _hash64(text, salt):
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    key = b"" if salt is None else repr(salt).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, key=key[:64]).digest(), "little")


class Hashing(Layer):
    """Hashes strings (or integers, as their decimal text) into `num_bins` bins; with mask_value,
    that value gets bin 0 and the others bins 1..num_bins-1."""

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs):
        kwargs.setdefault("dtype", "int64" if output_mode == "int" else None)
        super().__init__(**kwargs)
        if num_bins is None or int(num_bins) <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: "
                             f"num_bins={num_bins}.")
        if output_mode not in ("int",) + _MODES:
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        self.num_bins = int(num_bins)
        self.mask_value = mask_value
        self.salt = salt
        self.output_mode = output_mode
        self.sparse = bool(sparse)

    def _kernel(self, a):
        bins = self.num_bins - (1 if self.mask_value is not None else 0)
        mask = self.mask_value
        if isinstance(mask, str):
            mask = mask.encode("utf-8")
        out = np.empty(a.shape, np.int64)
        flat = a.reshape(-1)
        res = out.reshape(-1)
        for i, v in enumerate(flat):
            v = v.item() if isinstance(v, np.generic) else v
            if mask is not None and v == mask:
                res[i] = 0
                continue
            text = v if isinstance(v, (bytes, str)) else str(v)
            h = _hash64(text, self.salt) % bins
            res[i] = h + 1 if mask is not None else h
        return out

    def call(self, inputs):
        x = _tensor(inputs)
        y = numpy_function(self._kernel, [x], dt.int64, stateful=False)
        if isinstance(y, SymbolicTensor):
            y.set_shape(x.shape)
        if self.output_mode == "int":
            return y
        return _encode(y, self.num_bins, self.output_mode, dt.float32)

    def get_config(self):
        return {**super().get_config(), "num_bins": self.num_bins, "mask_value": self.mask_value, "salt": self.salt,
                "output_mode": self.output_mode, "sparse": self.sparse}

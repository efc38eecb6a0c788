"""tf.lookup: StaticHashTable and StaticVocabularyTable built from a
KeyValueTensorInitializer or a TextFileInitializer.

A table is made eagerly (its initializer's keys and values are numpy arrays),
and ``lookup`` is an op whose attribute is the table: eager calls and graphs
map each key through the same dict. Keys may be tensors of any shape,
RaggedTensors (their values are looked up) or SparseTensors.
"""
from __future__ import annotations

import numpy as np

from . import dtypes as dt
from .opdef import define
from .ops._core import apply1
from .tensor import EagerTensor, Tensor, convert_to_tensor

__all__ = ["KeyValueTensorInitializer", "TextFileInitializer", "TextFileIndex", "StaticHashTable",
           "StaticVocabularyTable"]


def _eager_values(x, dtype, what):
    if isinstance(x, Tensor) and not isinstance(x, EagerTensor):
        raise NotImplementedError(f"tf.lookup: the initializer's {what} must be known when the table is made "
                                  "(make the table outside tf.function)")
    t = convert_to_tensor(x, dtype=dtype)
    return t.dtype, np.asarray(t.numpy()).reshape(-1)


def _key(v):
    return v.item() if isinstance(v, np.generic) else v


class KeyValueTensorInitializer:
    """The table's contents: keys[i] maps to values[i]."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self.key_dtype, keys = _eager_values(keys, key_dtype, "keys")
        self.value_dtype, values = _eager_values(values, value_dtype, "values")
        if len(keys) != len(values):
            from .errors import InvalidArgumentError

            raise InvalidArgumentError(None, "LookupTableImport", f"Expected shape [{len(keys)}] for value, got "
                                                                  f"[{len(values)}]")
        self._pairs = [(_key(k), _key(v)) for k, v in zip(keys, values)]


class TextFileIndex:
    """Where a TextFileInitializer takes a key or value from: the whole line or its line number."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


class TextFileInitializer:
    """The table's contents read from a text file: per line, a key and a value taken from the whole
    line (TextFileIndex.WHOLE_LINE), the line number (LINE_NUMBER) or a column split by `delimiter`."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None, delimiter="\t",
                 name=None, value_index_offset=0):
        self.key_dtype, self.value_dtype = dt.as_dtype(key_dtype), dt.as_dtype(value_dtype)
        path = filename.numpy().decode() if isinstance(filename, EagerTensor) else str(filename)
        with open(path, "rb") as f:
            lines = [line.rstrip(b"\n").rstrip(b"\r") for line in f]
        if vocab_size is not None:
            lines = lines[:vocab_size]
        sep = delimiter.encode() if isinstance(delimiter, str) else delimiter

        def field(line, i, index, dtype):
            if index == TextFileIndex.LINE_NUMBER:
                raw = i
            elif index == TextFileIndex.WHOLE_LINE:
                raw = line
            else:
                raw = line.split(sep)[index]
            if dtype is dt.string:
                return raw if isinstance(raw, bytes) else str(raw).encode()
            return dtype.np.type(int(raw) if dtype.is_integer else float(raw)).item()

        self._pairs = [(field(line, i, key_index, self.key_dtype), field(line, i, value_index, self.value_dtype))
                       for i, line in enumerate(lines)]


def _lookup_infer(inputs, attrs):
    table = attrs["table"]
    if inputs[0].dtype is not table.key_dtype:
        raise TypeError(f"Key dtype {inputs[0].dtype.name} does not match the table's key dtype "
                        f"{table.key_dtype.name}")
    return [(table.value_dtype, inputs[0].shape)]


def _lookup_kernel(keys, table):
    find = table._find
    if np.ndim(keys) == 0:
        return np.asarray(find(_key(keys.item() if isinstance(keys, np.ndarray) else keys)),
                          dtype=table.value_dtype.np)[()]
    a = np.asarray(keys, dtype=object)
    out = np.empty(a.shape, dtype=object if table.value_dtype is dt.string else table.value_dtype.np)
    for idx in np.ndindex(a.shape):
        out[idx] = find(_key(a[idx]))
    return out


LOOKUP = define("LookupTableFind", _lookup_infer, _lookup_kernel, sig="keys, *, table: any")


class _Table:
    def __init__(self, initializer, name=None):
        self._initializer = initializer
        self.key_dtype, self.value_dtype = initializer.key_dtype, initializer.value_dtype
        self._map = dict(initializer._pairs)
        self.name = name

    def _find(self, key):
        raise NotImplementedError

    def lookup(self, keys, name=None):
        """The value of every key (a tensor of the keys' shape; ragged and sparse keys keep their structure)."""
        from .composite import SparseTensor
        from .ragged import RaggedTensor

        if isinstance(keys, RaggedTensor):
            return keys.with_flat_values(self.lookup(keys.flat_values))
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, self.lookup(keys.values), keys.dense_shape)
        return apply1(LOOKUP, [convert_to_tensor(keys, dtype=self.key_dtype)], {"table": self})

    __getitem__ = lookup

    def size(self, name=None):
        return convert_to_tensor(len(self._map), dtype=dt.int64)

    def export(self, name=None):
        keys = list(self._map)
        return (convert_to_tensor(np.array(keys, dtype=object if self.key_dtype is dt.string else None),
                                  dtype=self.key_dtype),
                convert_to_tensor(np.array(list(self._map.values()),
                                           dtype=object if self.value_dtype is dt.string else None),
                                  dtype=self.value_dtype))

    @property
    def resource_handle(self):
        return self


class StaticHashTable(_Table):
    """tf.lookup.StaticHashTable: the initializer's keys map to its values, any other key to
    `default_value`."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        super().__init__(initializer, name)
        d = convert_to_tensor(default_value, dtype=self.value_dtype)
        self.default_value = d
        self._default = _key(np.asarray(d.numpy())[()])

    def _find(self, key):
        return self._map.get(key, self._default)


class StaticVocabularyTable(_Table):
    """tf.lookup.StaticVocabularyTable: the vocabulary's ids (int64); keys outside it map to
    vocab_size + a bucket (one out-of-vocabulary bucket here: TensorFlow's bucket hash is
    its Fingerprint64, which this runtime does not reproduce)."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets != 1:
            raise NotImplementedError("tf.lookup.StaticVocabularyTable supports num_oov_buckets=1 here (TensorFlow "
                                      "hashes keys into the buckets with Fingerprint64)")
        super().__init__(initializer, name)
        self.value_dtype = dt.int64
        self._oov = len(self._map)

    def _find(self, key):
        return self._map.get(key, self._oov)

    def size(self, name=None):
        return convert_to_tensor(len(self._map) + 1, dtype=dt.int64)

"""Composite tensors: tf.SparseTensor and tf.RaggedTensor.

Each is a small structure of ordinary tensors (its components). The runtime's
nest utilities see those components (``_tf_components`` /
``_tf_from_components``), so a composite tensor crosses staged conditionals
and loops as its component tensors do, with the same checks (a loop variable
whose components change dtype or shape raises naming the variable).
"""
from __future__ import annotations

import numpy as np

from . import dtypes as dt
from . import ops
from .ops.array import gather_nd, scatter_nd
from .ops.strings import pieces, split_parts
from .shapes import TensorShape
from .tensor import EagerTensor, Tensor, convert_to_tensor

__all__ = ["SparseTensor", "RaggedTensor", "string_split", "sparse_to_dense", "sparse_from_dense", "sparse_expand_dims",
           "ragged_constant", "bytes_split", "unicode_split", "unicode_decode"]


def _static_dims(t):
    """The values of a 1-D int tensor known while tracing, else None."""
    if isinstance(t, EagerTensor):
        return [int(v) for v in np.asarray(t._value).reshape(-1)]
    c = getattr(t, "const", None)
    if c is not None:
        return [int(v) for v in np.asarray(c).reshape(-1)]
    return None


class SparseTensor:
    """tf.SparseTensor(indices, values, dense_shape)."""

    def __init__(self, indices, values, dense_shape):
        self.indices = convert_to_tensor(indices, dtype=dt.int64)
        self.values = convert_to_tensor(values)
        self.dense_shape = convert_to_tensor(dense_shape, dtype=dt.int64)
        if self.indices.shape.rank not in (None, 2):
            raise ValueError(f"SparseTensor indices must be a matrix, got shape {self.indices.shape}")
        if self.values.shape.rank not in (None, 1):
            raise ValueError(f"SparseTensor values must be a vector, got shape {self.values.shape}")

    # composite protocol ----------------------------------------------------
    def _tf_components(self):
        return (self.indices, self.values, self.dense_shape)

    def _tf_from_components(self, components):
        return SparseTensor(*components)

    def _tf_static_key(self):
        return ()

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        dims = _static_dims(self.dense_shape)
        if dims is not None:
            return TensorShape(dims)
        n = self.dense_shape.shape.dims[0] if self.dense_shape.shape.rank == 1 else None
        return TensorShape(None if n is None else [None] * n)

    def __mul__(self, other):
        return SparseTensor(self.indices, self.values * other, self.dense_shape)

    __rmul__ = __mul__

    def __repr__(self):
        return f"SparseTensor(indices={self.indices!r}, values={self.values!r}, dense_shape={self.dense_shape!r})"


def sparse_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """tf.sparse.to_dense."""
    dense = scatter_nd(sp_input.indices, sp_input.values, sp_input.dense_shape)
    if default_value is not None and default_value != 0:
        ones = scatter_nd(sp_input.indices, ops.ones_like(sp_input.values), sp_input.dense_shape)
        dense = ops.where(ops.cast(ones, dt.bool), dense, ops.fill(ops.shape(dense), ops.cast(default_value, dense.dtype)))
    return dense


def sparse_expand_dims(sp_input, axis=None, name=None):
    """tf.sparse.expand_dims: a dimension of size 1 inserted at ``axis``
    (a Python int; by default the last)."""
    axis = -1 if axis is None else int(axis)
    indices, dense_shape = sp_input.indices, sp_input.dense_shape
    column = ops.zeros(ops.stack([ops.shape(indices, out_type=dt.int64)[0], 1]), dt.int64)
    one = convert_to_tensor([1], dtype=dt.int64)
    if axis == -1:
        return SparseTensor(ops.concat([indices, column], 1), sp_input.values, ops.concat([dense_shape, one], 0))
    if axis < 0:
        rank = dense_shape.shape.dims[0] if dense_shape.shape.rank == 1 else None
        if rank is None:
            raise ValueError("tf.sparse.expand_dims: a negative axis other than -1 needs the rank known while tracing")
        axis += rank + 1
    return SparseTensor(ops.concat([indices[:, :axis], column, indices[:, axis:]], 1), sp_input.values,
                        ops.concat([dense_shape[:axis], one, dense_shape[axis:]], 0))


def sparse_from_dense(tensor, name=None):
    """tf.sparse.from_dense: the non-zero entries."""
    tensor = convert_to_tensor(tensor)
    indices = ops.where(ops.not_equal(tensor, ops.zeros_like(tensor)))
    return SparseTensor(indices, gather_nd(tensor, indices), ops.shape(tensor, out_type=dt.int64))


# ---------------------------------------------------------------- ragged
def _ragged_to_tensor_infer(inputs, attrs):
    values = inputs[0]
    rest = values.shape.dims[1:] if values.shape.rank is not None else None
    return [(values.dtype, TensorShape(None if rest is None else [None, None, *rest]))]


def _ragged_to_tensor_kernel(values, row_splits, default_value=0):
    values = np.asarray(values)
    row_splits = np.asarray(row_splits)
    lengths = np.diff(row_splits)
    width = int(lengths.max()) if lengths.size else 0
    out = np.full((lengths.size, width, *values.shape[1:]), default_value, dtype=values.dtype)
    for i, (a, b) in enumerate(zip(row_splits[:-1], row_splits[1:])):
        out[i, : b - a] = values[a:b]
    return out


RAGGED_TO_TENSOR = ops.define("RaggedTensorToTensor", _ragged_to_tensor_infer, _ragged_to_tensor_kernel,
                              sig="values, row_splits, *, default_value: any = 0")


class RaggedTensor:
    """tf.RaggedTensor with one ragged dimension: flat ``values`` and
    ``row_splits`` (int64) marking where each row starts and ends."""

    def __init__(self, values, row_splits):
        self.values = convert_to_tensor(values)
        self.row_splits = convert_to_tensor(row_splits, dtype=dt.int64)

    @staticmethod
    def from_row_splits(values, row_splits, name=None, validate=True):
        return RaggedTensor(values, row_splits)

    @staticmethod
    def from_row_lengths(values, row_lengths, name=None, validate=True):
        lengths = ops.cast(convert_to_tensor(row_lengths), dt.int64)
        splits = ops.concat([ops.zeros([1], dt.int64), ops.cumsum(lengths)], 0)
        return RaggedTensor(values, splits)

    def _tf_components(self):
        return (self.values, self.row_splits)

    def _tf_from_components(self, components):
        return RaggedTensor(*components)

    def _tf_static_key(self):
        return ()

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def flat_values(self):
        return self.values

    @property
    def shape(self):
        n = self.row_splits.shape.dims[0] if self.row_splits.shape.rank == 1 else None
        rest = self.values.shape.dims[1:] if self.values.shape.rank is not None else []
        return TensorShape([None if n is None else n - 1, None, *rest])

    def nrows(self, out_type=dt.int64):
        return ops.cast(ops.shape(self.row_splits)[0] - 1, out_type)

    def row_lengths(self):
        return self.row_splits[1:] - self.row_splits[:-1]

    def to_tensor(self, default_value=None, name=None):
        attrs = {} if default_value is None else {"default_value": default_value}
        return ops.apply1(RAGGED_TO_TENSOR, [self.values, self.row_splits], attrs)

    def to_list(self):
        values = np.asarray(self.values.numpy())
        splits = np.asarray(self.row_splits.numpy())
        return [values[a:b].tolist() for a, b in zip(splits[:-1], splits[1:])]

    def row(self, i):
        """Row ``i`` (a Python int or a scalar integer tensor) as a tensor."""
        if isinstance(i, (int, np.integer)) and not isinstance(i, bool):
            if i < 0:
                i = i + int(self.nrows())
            start, stop = self.row_splits[i], self.row_splits[i + 1]
        else:
            i = ops.cast(i, dt.int64)
            start, stop = ops.gather(self.row_splits, i), ops.gather(self.row_splits, i + 1)
        return self.values[start:stop]

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)) or (isinstance(key, Tensor) and key.shape.rank == 0):
            return self.row(key)
        raise TypeError(f"RaggedTensor indexing supports one row index, got {key!r}")

    def __iter__(self):
        """The rows, eagerly. In a traced function a converted ``for`` over
        a RaggedTensor is a staged loop over its rows (the backend's
        for_stmt); unconverted iteration needs the row count known."""
        return (self.row(i) for i in range(len(self)))

    def __len__(self):
        count = self.row_splits.shape.dims[0] if self.row_splits.shape.rank == 1 else None
        if count is None:
            raise TypeError("the number of rows of this RaggedTensor is not known while tracing: iterate over it "
                            "in a converted for loop (a staged loop), or use nrows()")
        return count - 1

    def _elementwise(self, fn):
        return RaggedTensor(fn(self.values), self.row_splits)

    def __add__(self, other):
        return self._elementwise(lambda v: v + other)

    def __mul__(self, other):
        return self._elementwise(lambda v: v * other)

    def __sub__(self, other):
        return self._elementwise(lambda v: v - other)

    __radd__ = __add__
    __rmul__ = __mul__

    def __repr__(self):
        try:
            return f"<tf.RaggedTensor {self.to_list()}>"
        except Exception:
            return f"tf.RaggedTensor(values={self.values!r}, row_splits={self.row_splits!r})"


def ragged_constant(pylist, dtype=None, ragged_rank=None, name=None):
    """tf.ragged.constant for a list of rows (one ragged dimension)."""
    rows = [np.asarray(r) for r in pylist]
    lengths = [len(r) for r in rows]
    flat = [x for r in pylist for x in r]
    values = convert_to_tensor(flat, dtype=dtype) if flat else convert_to_tensor(
        np.zeros([0], dtype=(dt.as_dtype(dtype).np if dtype is not None else np.float32)))
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    return RaggedTensor(values, splits)


_ = Tensor


def string_split(input, sep=None, maxsplit=-1, name=None):
    """tf.strings.split: a scalar string gives a 1-D tensor of its pieces, a
    vector a RaggedTensor with one row of pieces per string."""
    x, values, splits = split_parts(input, sep, maxsplit)
    if x.shape.rank == 0:
        return values
    return RaggedTensor(values, splits)


def _pieces(input, unit, encoding="UTF-8"):  # noqa: A002
    x, values, splits = pieces(input, unit, encoding)
    if x.shape.rank == 0:
        return values
    return RaggedTensor(values, splits)


def bytes_split(input, name=None):  # noqa: A002
    """tf.strings.bytes_split: each string's bytes (a RaggedTensor of rows for a vector)."""
    return _pieces(input, "BYTE")


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """tf.strings.unicode_split: each string's characters, as UTF-8 strings."""
    return _pieces(input, "UTF8_CHAR", input_encoding)


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """tf.strings.unicode_decode: each string's Unicode code points (int32)."""
    return _pieces(input, "CODE_POINT", input_encoding)

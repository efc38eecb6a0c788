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
from .ops.array import (boolean_mask, gather_nd, scatter_nd, sequence_mask, unsorted_segment_max,
                        unsorted_segment_min, unsorted_segment_prod, unsorted_segment_sum)
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

    @staticmethod
    def from_value_rowids(values, value_rowids, nrows=None, name=None, validate=True):
        return _from_value_rowids(values, value_rowids, nrows)

    @staticmethod
    def from_tensor(tensor, lengths=None, padding=None, ragged_rank=1, name=None):
        return _from_tensor(tensor, lengths, padding)

    ragged_rank = 1

    def value_rowids(self):
        return _value_rowids(self)

    def row_starts(self):
        return self.row_splits[:-1]

    def row_limits(self):
        return self.row_splits[1:]

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


# ------------------------------------------- ragged and sparse ops the guides use
def _value_rowids(rt):
    """The row of each value (int64), from the row splits."""
    n = ops.shape(rt.values, out_type=dt.int64)[0]
    positions = ops.range(n, dtype=dt.int64)
    # searchsorted(splits[1:], position, side="right") as a sum of comparisons
    ends = rt.row_splits[1:]
    return ops.reduce_sum(ops.cast(ops.greater_equal(ops.expand_dims(positions, 1), ops.expand_dims(ends, 0)),
                                   dt.int64), axis=1)




def _from_value_rowids(values, value_rowids, nrows=None, name=None, validate=True):
    """tf.RaggedTensor.from_value_rowids: values grouped by their (sorted) row ids."""
    ids = ops.cast(convert_to_tensor(value_rowids), dt.int64)
    if nrows is None:
        nrows = ops.reduce_max(ops.concat([ids, convert_to_tensor([-1], dtype=dt.int64)], 0)) + 1
    counts = unsorted_segment_sum(ops.ones_like(ids), ids, ops.cast(nrows, dt.int64))
    return RaggedTensor.from_row_lengths(values, counts)


def _from_tensor(tensor, lengths=None, padding=None, ragged_rank=1, name=None):
    """tf.RaggedTensor.from_tensor: the rows of a dense tensor, cut at ``lengths``
    or where the trailing ``padding`` begins."""
    t = convert_to_tensor(tensor)
    nrows, width = ops.shape(t, out_type=dt.int64)[0], ops.shape(t, out_type=dt.int64)[1]
    if lengths is not None:
        row_lengths = ops.cast(convert_to_tensor(lengths), dt.int64)
    elif padding is not None:
        is_pad = ops.equal(t, ops.cast(padding, t.dtype))
        if t.shape.rank is not None and t.shape.rank > 2:
            is_pad = ops.reduce_all(is_pad, axis=list(range(2, t.shape.rank)))  # (the builtin range)
        keep = ops.cast(ops.logical_not(is_pad), dt.int64)
        positions = ops.range(1, width + 1, dtype=dt.int64)
        row_lengths = ops.reduce_max(keep * positions, axis=1)
    else:
        row_lengths = ops.fill(ops.expand_dims(nrows, 0), width)
    mask = sequence_mask(row_lengths, width)
    return RaggedTensor.from_row_lengths(boolean_mask(t, mask), row_lengths)




def ragged_map_flat_values(op, *args, **kwargs):
    """tf.ragged.map_flat_values: ``op`` applied to the ragged arguments' flat values
    (they must share row partitions); the result keeps that partition."""
    splits = None

    def flat(v):
        nonlocal splits
        if isinstance(v, RaggedTensor):
            splits = v.row_splits if splits is None else splits
            return v.values
        return v

    out = op(*[flat(a) for a in args], **{k: flat(v) for k, v in kwargs.items()})
    if splits is None:
        return out
    return RaggedTensor(out, splits)


_REDUCERS = {"sum": unsorted_segment_sum, "max": unsorted_segment_max, "min": unsorted_segment_min,
             "prod": unsorted_segment_prod}


def ragged_reduce(kind, dense_fn):
    """tf.reduce_<kind> accepting a RaggedTensor: axis=1 reduces each row (a dense
    vector, TensorFlow's identity value for an empty row), axis=None or 0 as the
    dense function on the values."""

    def reduce(input_tensor, axis=None, keepdims=False, name=None, **kwargs):
        if not isinstance(input_tensor, RaggedTensor):
            return dense_fn(input_tensor, axis=axis, keepdims=keepdims, **kwargs)
        rt = input_tensor
        if axis is None:
            return dense_fn(rt.values, keepdims=keepdims, **kwargs)
        if axis in (1, -1) and (rt.values.shape.rank == 1 or axis == 1):
            nrows = rt.nrows()
            ids = _value_rowids(rt)
            if kind == "mean":
                total = unsorted_segment_sum(rt.values, ids, nrows)
                out = total / ops.cast(rt.row_lengths(), total.dtype)
            else:
                out = _REDUCERS[kind](rt.values, ids, nrows)
            return ops.expand_dims(out, 1) if keepdims else out
        if axis in (0, -2):
            dense = rt.to_tensor()
            if kind in ("sum", "mean"):
                total = ops.reduce_sum(dense, axis=0)
                if kind == "sum":
                    return total
                counts = ops.reduce_sum(ops.cast(sequence_mask(rt.row_lengths()), total.dtype), axis=0)
                return total / counts
            raise NotImplementedError(f"tf.reduce_{kind} of a RaggedTensor over axis 0 is not supported")
        raise ValueError(f"axis {axis} is out of range for a RaggedTensor of rank 2")

    reduce.__name__ = dense_fn.__name__
    reduce.__doc__ = dense_fn.__doc__
    return reduce


def ragged_concat(concat_fn):
    """tf.concat accepting RaggedTensors: axis 0 stacks the rows, axis 1 joins each row."""

    def concat(values, axis, name="concat"):
        if not any(isinstance(v, RaggedTensor) for v in values):
            return concat_fn(values, axis, name=name)
        rts = [v if isinstance(v, RaggedTensor) else _from_tensor(v) for v in values]
        if axis == 0:
            offsets = [r.row_splits[-1] for r in rts]
            splits = [rts[0].row_splits]
            total = offsets[0]
            for r, off in zip(rts[1:], offsets[1:]):
                splits.append(r.row_splits[1:] + total)
                total = total + off
            return RaggedTensor(concat_fn([r.values for r in rts], 0), concat_fn(splits, 0))
        if axis in (1, -1):
            lengths = [r.row_lengths() for r in rts]
            # interleave each row of every input: gather the values by position
            joined = concat_fn([ops.expand_dims(length, 1) for length in lengths], 1)
            out_lengths = ops.reduce_sum(joined, axis=1)
            pieces_values = concat_fn([r.values for r in rts], 0)
            order = []
            for k, r in enumerate(rts):
                ids = _value_rowids(r)
                local = ops.range(ops.shape(r.values, out_type=dt.int64)[0], dtype=dt.int64) - ops.gather(r.row_splits, ids)
                before = ops.reduce_sum(joined[:, :k], axis=1) if k else ops.zeros_like(out_lengths)
                out_start = ops.concat([convert_to_tensor([0], dtype=dt.int64), ops.cumsum(out_lengths)], 0)[:-1]
                order.append(ops.gather(out_start + before, ids) + local)
            positions = concat_fn(order, 0)
            values = scatter_nd(ops.expand_dims(positions, 1), pieces_values,
                                    ops.expand_dims(ops.shape(pieces_values, out_type=dt.int64)[0], 0))
            return RaggedTensor.from_row_lengths(values, out_lengths)
        raise ValueError(f"tf.concat of RaggedTensors: axis {axis} is not supported")

    concat.__name__ = "concat"
    concat.__doc__ = concat_fn.__doc__
    return concat


def sparse_add(a, b, threshold=0, name=None):
    """tf.sparse.add: two SparseTensors summed (a SparseTensor of the entries either
    has), or a SparseTensor and a dense tensor (a dense tensor)."""
    if not isinstance(a, SparseTensor):
        return ops.add(convert_to_tensor(a), sparse_to_dense(b))
    if not isinstance(b, SparseTensor):
        return ops.add(sparse_to_dense(a), convert_to_tensor(b))
    return sparse_from_dense(ops.add(sparse_to_dense(a), sparse_to_dense(b)))


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """tf.sparse.sparse_dense_matmul: a SparseTensor (or dense) times a dense matrix."""
    a = sparse_to_dense(sp_a) if isinstance(sp_a, SparseTensor) else convert_to_tensor(sp_a)
    b = sparse_to_dense(b) if isinstance(b, SparseTensor) else convert_to_tensor(b)
    return ops.matmul(a, b, transpose_a=bool(adjoint_a), transpose_b=bool(adjoint_b))


def sparse_reduce_sum(sp_input, axis=None, keepdims=False, output_is_sparse=False, name=None):
    """tf.sparse.reduce_sum: the sum of a SparseTensor's values along ``axis`` (dense)."""
    return ops.reduce_sum(sparse_to_dense(sp_input), axis=axis, keepdims=keepdims)



def ragged_elementwise(fn):
    """A unary elementwise function (tf.cast, tf.square ...) that also maps a
    RaggedTensor's values, keeping its rows."""

    def apply_(x, *args, **kwargs):
        if isinstance(x, RaggedTensor):
            return RaggedTensor(fn(x.values, *args, **kwargs), x.row_splits)
        return fn(x, *args, **kwargs)

    apply_.__name__ = fn.__name__
    apply_.__doc__ = fn.__doc__
    return apply_

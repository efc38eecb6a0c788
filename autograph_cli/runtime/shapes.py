"""TensorShape (with unknown dimensions) and TensorSpec."""
from __future__ import annotations

from . import dtypes as _dtypes

__all__ = ["TensorShape", "TensorSpec", "as_shape"]


class TensorShape:
    """A possibly partial shape: ``dims`` is None (unknown rank) or a tuple
    whose entries are ints or None (unknown dimension)."""

    __slots__ = ("dims",)

    def __init__(self, dims=None):
        if dims is None:
            self.dims = None
        elif isinstance(dims, TensorShape):
            self.dims = dims.dims
        else:
            if isinstance(dims, int):
                dims = (dims,)
            self.dims = tuple(None if d is None else int(d) for d in dims)

    @property
    def rank(self):
        return None if self.dims is None else len(self.dims)

    ndims = rank

    def as_list(self):
        if self.dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self.dims)

    def is_fully_defined(self) -> bool:
        return self.dims is not None and all(d is not None for d in self.dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self.dims:
            n *= d
        return n

    def is_compatible_with(self, other) -> bool:
        other = as_shape(other)
        if self.dims is None or other.dims is None:
            return True
        if len(self.dims) != len(other.dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self.dims, other.dims))

    def is_subtype_of(self, other) -> bool:
        """True if every shape matching self also matches other."""
        other = as_shape(other)
        if other.dims is None:
            return True
        if self.dims is None or len(self.dims) != len(other.dims):
            return False
        return all(b is None or a == b for a, b in zip(self.dims, other.dims))

    def merge_with(self, other) -> "TensorShape":
        other = as_shape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if self.dims is None:
            return other
        if other.dims is None:
            return self
        return TensorShape([a if a is not None else b for a, b in zip(self.dims, other.dims)])

    def most_specific_common_supertype(self, other) -> "TensorShape":
        other = as_shape(other)
        if self.dims is None or other.dims is None or len(self.dims) != len(other.dims):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self.dims, other.dims)])

    most_specific_compatible_shape = most_specific_common_supertype  # TF 1.x name

    def assert_is_compatible_with(self, other) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def assert_same_rank(self, other) -> None:
        other = as_shape(other)
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_has_rank(self, rank) -> None:
        if self.rank not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_is_fully_defined(self) -> None:
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def with_rank(self, rank) -> "TensorShape":
        if self.dims is None:
            return TensorShape([None] * rank)
        if len(self.dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def with_rank_at_least(self, rank) -> "TensorShape":
        if self.dims is not None and len(self.dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank) -> "TensorShape":
        if self.dims is not None and len(self.dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def __bool__(self):
        # TF: "contains non-zero information" (a scalar shape () is truthy)
        return self.dims is not None

    def __len__(self):
        if self.dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self.dims)

    def __iter__(self):
        if self.dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self.dims)

    def __getitem__(self, key):
        if self.dims is None:
            if isinstance(key, slice):
                # as TensorFlow: a slice with known nonnegative bounds has a known rank
                start = 0 if key.start is None else key.start
                if key.step is None and key.stop is not None and start >= 0 and key.stop >= 0:
                    return TensorShape([None] * max(key.stop - start, 0))
                return TensorShape(None)
            return None
        if isinstance(key, slice):
            return TensorShape(self.dims[key])
        return self.dims[key]

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self.dims == other.dims

    def __hash__(self):
        return hash(self.dims)

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def concatenate(self, other):
        other = as_shape(other)
        if self.dims is None or other.dims is None:
            return TensorShape(None)
        return TensorShape(self.dims + other.dims)

    def __repr__(self):
        if self.dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self.dims)})"

    def __str__(self):
        if self.dims is None:
            return "<unknown>"
        if len(self.dims) == 1:
            return f"({self.dims[0]},)"
        return "(" + ", ".join(str(d) for d in self.dims) + ")"


def as_shape(value) -> TensorShape:
    if isinstance(value, TensorShape):
        return value
    return TensorShape(value)


class TensorSpec:
    """Describes a tensor argument: shape, dtype and an optional name."""

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape=None, dtype=_dtypes.float32, name=None):
        self.shape = as_shape(shape)
        self.dtype = _dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, value) -> bool:
        """Is a tensor (or spec) acceptable for this spec?"""
        return value.dtype is self.dtype and as_shape(value.shape).is_subtype_of(self.shape)

    def is_subtype_of(self, other) -> bool:
        return (isinstance(other, TensorSpec) and self.dtype is other.dtype
                and self.shape.is_subtype_of(other.shape))

    def most_specific_common_supertype(self, others):
        """The most specific spec every one of self and `others` matches (None if the dtypes differ)."""
        shape = self.shape
        for o in others:
            if not isinstance(o, TensorSpec) or o.dtype is not self.dtype:
                return None
            shape = shape.most_specific_common_supertype(o.shape)
        names = {self.name} | {o.name for o in others}
        return TensorSpec(shape, self.dtype, self.name if len(names) == 1 else None)

    def __eq__(self, other):
        return (
            isinstance(other, TensorSpec)
            and self.dtype is other.dtype
            and self.shape == other.shape
            and self.name == other.name
        )

    def __hash__(self):
        return hash((self.dtype, self.shape.dims, self.name))

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={self.name!r})"

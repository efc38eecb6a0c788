"""Error types of the runtime (mirrors tf.errors)."""
from __future__ import annotations

__all__ = [
    "OpError",
    "InvalidArgumentError",
    "OutOfRangeError",
    "NotFoundError",
    "UnimplementedError",
    "OperatorNotAllowedInGraphError",
    "LoopVariableTypeError",
    "StagingError",
    "UnboundLoopVariableError",
]


class OpError(Exception):
    """An error raised by an op while it runs (tf.errors.OpError)."""

    def __init__(self, node_def=None, op=None, message=""):
        if op is None and not message and isinstance(node_def, str):
            node_def, message = None, node_def
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidArgumentError(OpError):
    pass


class OutOfRangeError(OpError):
    pass


class NotFoundError(OpError):
    pass


class UnimplementedError(OpError):
    pass


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor was used where Python needs a concrete value."""


class DTypeMismatchError(InvalidArgumentError, TypeError):
    """Two tensors of different dtypes met in one op (no silent promotion)."""


class EagerShapeError(InvalidArgumentError, ValueError):
    """An op run eagerly on operands whose shapes it refuses (matmul of
    mismatched matrices, an index out of range, ...): TensorFlow's kernels raise
    InvalidArgumentError there, and the same check while tracing is a
    ValueError, so it is both. Named InvalidArgumentError, as TensorFlow's."""


EagerShapeError.__name__ = EagerShapeError.__qualname__ = "InvalidArgumentError"


class LoopVariableTypeError(InvalidArgumentError, TypeError):
    """A staged loop variable changed its dtype."""


class StagingError(ValueError):
    """A staged construct is malformed (variable undefined in a branch ...)."""


class UnboundLoopVariableError(InvalidArgumentError, UnboundLocalError):
    """A variable first bound inside a staged loop was used after a run of
    the graph in which the loop ran zero times (Python's UnboundLocalError)."""


class UndefinedInBothBranchesError(StagingError, UnboundLocalError):
    """A variable that neither branch of a staged conditional leaves defined
    (``del`` in both) was used after it: TensorFlow's ValueError ("must also
    be initialized"), and Python's UnboundLocalError."""

"""tf.keras.constraints: projections applied to a weight after each optimizer update
(`Dense(kernel_constraint=MaxNorm(2))`, `add_weight(constraint=...)`)."""
from __future__ import annotations

from autograph_cli.runtime import ops

from ._recorded import RecordsInitArgs

__all__ = ["Constraint", "MaxNorm", "NonNeg", "UnitNorm", "MinMaxNorm", "max_norm", "non_neg", "unit_norm",
           "min_max_norm", "get", "serialize", "deserialize"]

_EPSILON = 1e-7  # keras.backend.epsilon()


def _norms(w, axis):
    return ops.sqrt(ops.reduce_sum(ops.square(w), axis=axis, keepdims=True))


class Constraint(RecordsInitArgs):
    """Base class: called with a weight, returns the projected weight."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    """Rescale each slice along `axis` whose L2 norm exceeds max_value to that norm."""

    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = ops.minimum(norms, float(self.max_value))
        return w * (desired / (_EPSILON + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Negative entries become zero."""

    def __call__(self, w):
        return w * ops.cast(ops.greater_equal(w, 0.0), w.dtype)


class UnitNorm(Constraint):
    """Each slice along `axis` divided by its L2 norm."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (_EPSILON + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Each slice's L2 norm moved toward [min_value, max_value] by `rate` (1: exactly into it)."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = self.rate * ops.minimum(ops.maximum(norms, float(self.min_value)), float(self.max_value)) + \
            (1 - self.rate) * norms
        return w * (desired / (_EPSILON + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


max_norm = MaxNorm
non_neg = NonNeg
unit_norm = UnitNorm
min_max_norm = MinMaxNorm

_BY_NAME = {"max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm, "min_max_norm": MinMaxNorm,
            "MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm, "MinMaxNorm": MinMaxNorm}


def serialize(constraint):
    """A constraint's {"class_name", "config"}."""
    return None if constraint is None else {"class_name": type(constraint).__name__,
                                            "config": constraint.get_config()}


def deserialize(config, custom_objects=None):
    """The constraint a serialize() dict describes."""
    from .saving import deserialize_keras_object

    return deserialize_keras_object(config, custom_objects)


def get(identifier):
    """A constraint from None, an instance, a name ("max_norm"), a config dict or a callable."""
    if identifier is None or isinstance(identifier, Constraint):
        return identifier
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret constraint identifier: {identifier!r}")
        return cls()
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret constraint identifier: {identifier!r}")

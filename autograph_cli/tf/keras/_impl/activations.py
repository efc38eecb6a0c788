"""tf.keras.activations."""
from __future__ import annotations

from autograph_cli.runtime import ops
from autograph_cli.runtime.ops import nn as nn_ops

__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "linear", "gelu", "elu", "selu", "softplus",
           "softsign", "swish", "silu", "exponential", "leaky_relu", "relu6", "get", "serialize"]


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    x = ops.convert_to_tensor(x)
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return ops.relu(x)
    y = ops.where(x > threshold, x, negative_slope * (x - threshold)) if negative_slope else \
        ops.where(x > threshold, x, ops.zeros_like(x))
    return y if max_value is None else ops.minimum(y, float(max_value))


def sigmoid(x):
    return ops.sigmoid(x)


def tanh(x):
    return ops.tanh(x)


def softmax(x, axis=-1):
    return nn_ops.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return nn_ops.log_softmax(x, axis=axis)


def linear(x):
    return x


def gelu(x, approximate=False):
    return nn_ops.gelu(x, approximate=approximate)


def elu(x, alpha=1.0):
    y = nn_ops.elu(x)
    return y if alpha == 1.0 else ops.where(ops.convert_to_tensor(x) > 0, y, y * alpha)


def selu(x):
    return nn_ops.selu(x)


def softplus(x):
    return nn_ops.softplus(x)


def softsign(x):
    return nn_ops.softsign(x)


def swish(x):
    return nn_ops.silu(x)


silu = swish


def exponential(x):
    return ops.exp(x)


def leaky_relu(x, negative_slope=0.2):
    return nn_ops.leaky_relu(x, negative_slope)


def relu6(x):
    return nn_ops.relu6(x)


_BY_NAME = {n: globals()[n] for n in __all__ if n not in ("get", "serialize")}


def get(identifier):
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        fn = _BY_NAME.get(identifier)
        if fn is None:
            raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")
        return fn
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(fn):
    return getattr(fn, "__name__", repr(fn))

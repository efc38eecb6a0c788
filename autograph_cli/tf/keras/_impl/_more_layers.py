"""More layers the Keras guides use: 1-D convolution and pooling (as their
2-D forms over a height of one), padding and up-sampling, the parametric
activations, the merge layers and their functional forms, RepeatVector,
Permute, Rescaling and Identity. All compose existing ops, so their
gradients (and the other backends' lowerings) come with them."""
from __future__ import annotations

from typing import Any, Callable

from autograph_cli.runtime import ops
from autograph_cli.runtime.ops import array as array_ops
from autograph_cli.runtime.ops import nn as nn_ops
from autograph_cli.runtime.shapes import TensorShape

from . import activations, initializers
from ._layer import Layer, _take_regularizers

__all__ = [
    "Conv1D", "MaxPooling1D", "AveragePooling1D", "MaxPool1D", "AvgPool1D", "ZeroPadding1D", "ZeroPadding2D",
    "UpSampling1D", "UpSampling2D", "LeakyReLU", "ELU", "PReLU", "Subtract", "Multiply", "Average", "Maximum",
    "Minimum", "add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate", "RepeatVector",
    "Permute", "Rescaling", "Identity",
]


def _int1(v, name):
    if isinstance(v, (list, tuple)):
        if len(v) != 1:
            raise ValueError(f"The `{name}` argument must be a tuple of 1 integer. Received: {v}")
        v = v[0]
    return int(v)


def _dim(x, axis):
    d = x.shape.dims[axis] if x.shape.dims is not None else None
    return d if d is not None else ops.shape(x)[axis]


class Conv1D(Layer):
    """1-D convolution over (batch, steps, channels); kernel of shape (kernel_size, in, filters);
    padding 'valid', 'same' or 'causal' (left-padded, so step t sees steps <= t only)."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 groups=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", **kwargs):
        if data_format not in (None, "channels_last"):
            raise ValueError("Conv1D supports data_format='channels_last' only")
        if groups != 1:
            raise NotImplementedError("Conv1D(groups=...) is not supported by this runtime")
        _take_regularizers(self, kwargs, "kernel", "bias")
        super().__init__(**kwargs)
        self.filters = int(filters)
        self.kernel_size = (_int1(kernel_size, "kernel_size"),)
        self.strides = (_int1(strides, "strides"),)
        self.padding = padding.lower()
        if self.padding not in ("valid", "same", "causal"):
            raise ValueError(f"The `padding` argument must be one of 'valid', 'same', 'causal'. Received: {padding}")
        self.dilation_rate = (_int1(dilation_rate, "dilation_rate"),)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)

    def build(self, input_shape):
        shape = TensorShape(input_shape)
        if shape.rank != 3:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected ndim=3, "
                             f"found ndim={shape.rank}. Full shape received: {shape}")
        c = shape.dims[-1]
        if c is None:
            raise ValueError(f"The channel dimension of the inputs to `Conv1D` should be defined. Found None. "
                             f"Full input shape received: {shape}")
        self.kernel = self.add_weight("kernel", self.kernel_size + (c, self.filters), initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", (self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def call(self, inputs):
        x = inputs
        padding = self.padding
        if padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            x = array_ops.pad(x, [[0, 0], [left, 0], [0, 0]])
            padding = "valid"
        y = nn_ops.conv2d(ops.expand_dims(x, 1), ops.expand_dims(self.kernel, 0), (1, self.strides[0]),
                          padding.upper(), dilations=(1, self.dilation_rate[0]))
        y = ops.squeeze(y, [1])
        if self.bias is not None:
            y = nn_ops.bias_add(y, self.bias)
        return self.activation(y)


class _Pool1D(Layer):
    _fn: Callable[..., Any] | None = None

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        if data_format not in (None, "channels_last"):
            raise ValueError(f"{type(self).__name__} supports data_format='channels_last' only")
        super().__init__(**kwargs)
        self.pool_size = _int1(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _int1(strides, "strides")
        self.padding = padding.lower()
        if self.padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. Received: {padding}")

    def call(self, inputs):
        y = type(self)._fn(ops.expand_dims(inputs, 1), (1, self.pool_size), (1, self.strides), self.padding.upper())
        return ops.squeeze(y, [1])


class MaxPooling1D(_Pool1D):
    """The maximum over sliding windows of a sequence's steps."""

    _fn = staticmethod(nn_ops.max_pool2d)


class AveragePooling1D(_Pool1D):
    """The mean over sliding windows of a sequence's steps."""

    _fn = staticmethod(nn_ops.avg_pool2d)


MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D


def _pairs(padding, n, name):
    """((before, after), ...) for n axes from an int, a tuple of n ints or of n pairs."""
    if isinstance(padding, int):
        return [(padding, padding)] * n
    padding = list(padding)
    if n == 1 and len(padding) == 2 and all(isinstance(p, int) for p in padding):
        return [tuple(padding)]
    if len(padding) != n:
        raise ValueError(f"`{name}` should have {n} elements. Received: {padding}")
    return [(p, p) if isinstance(p, int) else tuple(int(a) for a in p) for p in padding]


class ZeroPadding1D(Layer):
    """Zeros added at the start and end of a sequence's steps."""

    def __init__(self, padding=1, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pairs(padding, 1, "padding")[0]

    def call(self, inputs):
        return array_ops.pad(inputs, [[0, 0], list(self.padding), [0, 0]])


class ZeroPadding2D(Layer):
    """Rows and columns of zeros added around images (NHWC)."""

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        if data_format not in (None, "channels_last"):
            raise ValueError("ZeroPadding2D supports data_format='channels_last' only")
        super().__init__(**kwargs)
        self.padding = tuple(_pairs(padding, 2, "padding"))

    def call(self, inputs):
        return array_ops.pad(inputs, [[0, 0], list(self.padding[0]), list(self.padding[1]), [0, 0]])


def _repeat(x, axis, n):
    """Each slice along `axis` repeated n times in place (numpy's repeat)."""
    if n == 1:
        return x
    rank = x.shape.rank
    y = ops.expand_dims(x, axis + 1)
    y = array_ops.tile(y, [n if i == axis + 1 else 1 for i in range(rank + 1)])
    shape = [_dim(x, i) for i in range(rank)]
    d = shape[axis]
    shape[axis] = d * n
    return ops.reshape(y, shape)


class UpSampling1D(Layer):
    """Each step of a sequence repeated `size` times."""

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = int(size)

    def call(self, inputs):
        return _repeat(inputs, 1, self.size)


class UpSampling2D(Layer):
    """Images enlarged by repeating rows and columns (nearest-neighbour)."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        if interpolation != "nearest":
            raise NotImplementedError("UpSampling2D supports interpolation='nearest' only")
        if data_format not in (None, "channels_last"):
            raise ValueError("UpSampling2D supports data_format='channels_last' only")
        super().__init__(**kwargs)
        self.size = (int(size), int(size)) if isinstance(size, int) else tuple(int(s) for s in size)
        self.interpolation = interpolation

    def call(self, inputs):
        return _repeat(_repeat(inputs, 1, self.size[0]), 2, self.size[1])


class LeakyReLU(Layer):
    """x where x > 0, alpha * x elsewhere (alpha 0.3 by default, as Keras')."""

    def __init__(self, alpha=0.3, negative_slope=None, **kwargs):
        super().__init__(**kwargs)
        self.alpha = float(alpha if negative_slope is None else negative_slope)
        self.negative_slope = self.alpha

    def call(self, inputs):
        return nn_ops.leaky_relu(inputs, alpha=self.alpha)


class ELU(Layer):
    """x where x > 0, alpha * (exp(x) - 1) elsewhere."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = float(alpha)

    def call(self, inputs):
        y = nn_ops.elu(inputs)
        return y if self.alpha == 1.0 else ops.where(inputs > 0, y, y * self.alpha)


class PReLU(Layer):
    """A leaky ReLU whose slopes (one per input element, shared along `shared_axes`) are learned."""

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        _take_regularizers(self, {"alpha_regularizer": alpha_regularizer, "alpha_constraint": alpha_constraint},
                           "alpha")
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.shared_axes = None if shared_axes is None else \
            [shared_axes] if isinstance(shared_axes, int) else list(shared_axes)

    def build(self, input_shape):
        dims = list(TensorShape(input_shape).dims[1:])
        for a in self.shared_axes or []:
            dims[a - 1] = 1
        if any(d is None for d in dims):
            raise ValueError(f"PReLU needs the non-batch dimensions of its inputs (or shared_axes over the unknown "
                             f"ones); received {TensorShape(input_shape)}")
        self.alpha = self.add_weight("alpha", tuple(dims), initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        self.built = True

    def call(self, inputs):
        return ops.relu(inputs) - self.alpha * ops.relu(-inputs)


class _Merge(Layer):
    def _merge(self, xs):
        raise NotImplementedError

    def call(self, inputs):
        xs = list(inputs)
        if len(xs) < 2:
            raise ValueError(f"A merge layer should be called on a list of at least 2 inputs. Got {len(xs)} inputs.")
        return self._merge(xs)


class Subtract(_Merge):
    """The first of two inputs minus the second."""

    def _merge(self, xs):
        if len(xs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: {len(xs)} inputs")
        return xs[0] - xs[1]


class Multiply(_Merge):
    """The element-wise product of its inputs."""

    def _merge(self, xs):
        out = xs[0]
        for x in xs[1:]:
            out = out * x
        return out


class Average(_Merge):
    """The element-wise mean of its inputs."""

    def _merge(self, xs):
        return ops.add_n(xs) / float(len(xs))


class Maximum(_Merge):
    """The element-wise maximum of its inputs."""

    def _merge(self, xs):
        out = xs[0]
        for x in xs[1:]:
            out = ops.maximum(out, x)
        return out


class Minimum(_Merge):
    """The element-wise minimum of its inputs."""

    def _merge(self, xs):
        out = xs[0]
        for x in xs[1:]:
            out = ops.minimum(out, x)
        return out


def add(inputs, **kwargs):
    """The functional form of the Add layer: Add(**kwargs)(inputs)."""
    from .layers import Add

    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    """The functional form of the Subtract layer."""
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    """The functional form of the Multiply layer."""
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    """The functional form of the Average layer."""
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    """The functional form of the Maximum layer."""
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    """The functional form of the Minimum layer."""
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    """The functional form of the Concatenate layer."""
    from .layers import Concatenate

    return Concatenate(axis=axis, **kwargs)(inputs)


class RepeatVector(Layer):
    """(batch, features) repeated n times: (batch, n, features)."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = int(n)

    def call(self, inputs):
        return array_ops.tile(ops.expand_dims(inputs, 1), [1, self.n, 1])


class Permute(Layer):
    """The non-batch dimensions permuted (dims count from 1)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(int(d) for d in dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             f"must be consecutive and start from 1. Received dims={dims}")

    def call(self, inputs):
        return ops.transpose(inputs, [0, *self.dims])


class Rescaling(Layer):
    """inputs * scale + offset (in the layer's dtype)."""

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale
        self.offset = offset

    def call(self, inputs):
        x = inputs if inputs.dtype.is_floating else ops.cast(inputs, self.dtype)
        return x * ops.cast(ops.convert_to_tensor(self.scale), x.dtype) + ops.cast(ops.convert_to_tensor(self.offset), x.dtype)


class Identity(Layer):
    """Returns its inputs unchanged."""

    def call(self, inputs):
        return inputs

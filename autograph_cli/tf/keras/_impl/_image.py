"""Image preprocessing and augmentation layers (channels-last [batch, height,
width, channels] or one [height, width, channels] image): Resizing, CenterCrop
and the random augmentations, which change their inputs only when training
(identity at inference, except RandomCrop, which then resizes as Keras does).

Resizing follows tf.image.resize (half-pixel centers, no antialiasing); the
rotations, zooms and translations are tf.keras' affine transforms of each
image (output pixel (x, y) reads the input at the transformed point), with
its fill modes (reflect, wrap, constant, nearest) and nearest or bilinear
reads. All compose existing ops (gathers of computed indices)."""
from __future__ import annotations

import math

import numpy as np

from autograph_cli.runtime import dtypes as dt
from autograph_cli.runtime import ops
from autograph_cli.runtime.ops import array as array_ops
from autograph_cli.runtime.tensor import SymbolicTensor, Tensor

from ._layer import Layer

__all__ = ["Resizing", "CenterCrop", "RandomFlip", "RandomCrop", "RandomRotation", "RandomZoom", "RandomTranslation",
           "RandomContrast", "RandomBrightness"]

_FILL_MODES = ("reflect", "wrap", "constant", "nearest")
_INTERPOLATIONS = ("bilinear", "nearest")


def _training(training):
    if isinstance(training, Tensor):
        c = training.const if isinstance(training, SymbolicTensor) else training._value
        if c is None:
            raise NotImplementedError("an augmentation layer needs a Python (or constant) `training` value")
        return bool(c)
    return bool(training)


def _batched(layer, inputs, fn):
    """Run fn on a 4-D batch (a single 3-D image gets a batch of one)."""
    x = inputs if inputs.dtype.is_floating else ops.cast(inputs, layer.compute_dtype)
    rank = x.shape.rank
    if rank == 3:
        return array_ops.squeeze(fn(ops.expand_dims(x, 0)), [0])
    if rank != 4:
        raise ValueError(f"{type(layer).__name__} expects images of rank 3 or 4 ([batch,] height, width, channels), "
                         f"got shape {x.shape}")
    return fn(x)


def _static_hw(layer, x):
    h, w = x.shape.as_list()[1:3]
    if h is None or w is None:
        raise ValueError(f"{type(layer).__name__} needs the images' height and width to be known, got shape {x.shape}")
    return int(h), int(w)


def _range(factor, name, symmetric=True):
    if isinstance(factor, (list, tuple)):
        if len(factor) != 2:
            raise ValueError(f"`{name}` must be a float or a tuple of two floats, got {factor!r}")
        lo, hi = float(factor[0]), float(factor[1])
    else:
        lo, hi = (-abs(float(factor)), abs(float(factor))) if symmetric else (0.0, float(factor))
    if lo > hi:
        raise ValueError(f"`{name}` must be (lower, upper) with lower <= upper, got {factor!r}")
    return lo, hi


# resizing ---------------------------------------------------------------------------------------------------
def _axis_weights(in_size, out_size, interpolation):
    """tf.image.resize's source indices along one axis (half-pixel centers)."""
    scale = in_size / out_size
    d = np.arange(out_size, dtype=np.float64)
    if interpolation == "nearest":
        return np.minimum(np.floor((d + 0.5) * scale), in_size - 1).astype(np.int32), None, None
    src = (d + 0.5) * scale - 0.5
    lower = np.floor(src)
    frac = (src - lower).astype(np.float32)
    lo = np.clip(lower, 0, in_size - 1).astype(np.int32)
    hi = np.clip(np.ceil(src), 0, in_size - 1).astype(np.int32)
    return lo, hi, frac


def _resize_axis(x, axis, out_size, interpolation):
    in_size = x.shape.as_list()[axis]
    if in_size == out_size:
        return x
    lo, hi, frac = _axis_weights(in_size, out_size, interpolation)
    a = ops.gather(x, ops.convert_to_tensor(lo), axis=axis)
    if hi is None:
        return a
    b = ops.gather(x, ops.convert_to_tensor(hi), axis=axis)
    shape = [1, 1, 1, 1]
    shape[axis] = out_size
    f = ops.cast(ops.convert_to_tensor(frac.reshape(shape)), x.dtype)
    return a + (b - a) * f


def _resize(x, height, width, interpolation):
    # bilinear interpolation is separable: rows, then columns (the same values as the 2-D formula)
    return _resize_axis(_resize_axis(x, 1, height, interpolation), 2, width, interpolation)


def _crop_to_aspect(x, height, width):
    h, w = x.shape.as_list()[1:3]
    crop_h = min(h, int(float(w * height) / width))
    crop_w = min(w, int(float(h * width) / height))
    top, left = int(float(h - crop_h) / 2), int(float(w - crop_w) / 2)
    return x[:, top:top + crop_h, left:left + crop_w, :]


def _smart_resize(layer, x, height, width, interpolation="bilinear"):
    _static_hw(layer, x)
    return _resize(_crop_to_aspect(x, height, width), height, width, interpolation)


class Resizing(Layer):
    """Resize images to (height, width) (tf.image.resize's bilinear or nearest); with
    crop_to_aspect_ratio=True, the largest centered box of the target's aspect ratio first."""

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False, **kwargs):
        super().__init__(**kwargs)
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Resizing(interpolation={interpolation!r}): this runtime has "
                                      f"{', '.join(_INTERPOLATIONS)}")
        self.height, self.width = int(height), int(width)
        self.interpolation, self.crop_to_aspect_ratio = interpolation, bool(crop_to_aspect_ratio)

    def call(self, inputs):
        def fn(x):
            _static_hw(self, x)
            if self.crop_to_aspect_ratio:
                x = _crop_to_aspect(x, self.height, self.width)
            return _resize(x, self.height, self.width, self.interpolation)

        return _batched(self, inputs, fn)

    def compute_output_shape(self, input_shape):
        s = list(input_shape)
        s[-3:-1] = [self.height, self.width]
        return tuple(s)


class CenterCrop(Layer):
    """The centered (height, width) box of each image (an image smaller than that is
    cropped to the target's aspect ratio and resized up, as Keras does)."""

    def __init__(self, height, width, **kwargs):
        super().__init__(**kwargs)
        self.height, self.width = int(height), int(width)

    def call(self, inputs):
        def fn(x):
            h, w = _static_hw(self, x)
            if h >= self.height and w >= self.width:
                top, left = (h - self.height) // 2, (w - self.width) // 2
                return x[:, top:top + self.height, left:left + self.width, :]
            return _smart_resize(self, x, self.height, self.width)

        return _batched(self, inputs, fn)

    def compute_output_shape(self, input_shape):
        s = list(input_shape)
        s[-3:-1] = [self.height, self.width]
        return tuple(s)


# random augmentations -----------------------------------------------------------------------------------------
class _Random(Layer):
    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed

    def _uniform(self, shape, lo, hi, dtype=dt.float32):
        return ops.random_uniform(shape, minval=lo, maxval=hi, dtype=dtype, seed=self.seed)

    def call(self, inputs, training=True):
        if not _training(training):
            return self._inference(inputs)
        return _batched(self, inputs, self._augment)

    def _inference(self, inputs):
        return inputs


class RandomFlip(_Random):
    """When training, flips each image left-right and/or up-down with probability 1/2."""

    def __init__(self, mode="horizontal_and_vertical", seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument {mode}")
        self.mode = mode

    def _augment(self, x):
        n = ops.shape(x)[0]
        for axis, on in ((2, "horizontal" in self.mode), (1, "vertical" in self.mode)):
            if on:
                flip = ops.less(self._uniform(ops.stack([n, 1, 1, 1]), 0.0, 1.0), 0.5)
                x = ops.where(flip, array_ops.reverse(x, [axis]), x)
        return x


class RandomCrop(_Random):
    """When training, one random (height, width) box of the batch's images; at inference,
    and for images smaller than the box, the centered box of that aspect ratio resized."""

    def __init__(self, height, width, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.height, self.width = int(height), int(width)

    def _augment(self, x):
        h, w = _static_hw(self, x)
        if h < self.height or w < self.width:
            return _smart_resize(self, x, self.height, self.width)
        top = ops.cast(ops.floor(self._uniform([], 0.0, float(h - self.height + 1))), dt.int32)
        left = ops.cast(ops.floor(self._uniform([], 0.0, float(w - self.width + 1))), dt.int32)
        rows = ops.range(self.height) + ops.minimum(top, h - self.height)
        cols = ops.range(self.width) + ops.minimum(left, w - self.width)
        return ops.gather(ops.gather(x, rows, axis=1), cols, axis=2)

    def _inference(self, inputs):
        return _batched(self, inputs, lambda x: _smart_resize(self, x, self.height, self.width))

    def compute_output_shape(self, input_shape):
        s = list(input_shape)
        s[-3:-1] = [self.height, self.width]
        return tuple(s)


def _map_coord(c, n, fill_mode):
    """tf.keras' fill modes: where a coordinate outside [0, n - 1] reads."""
    n_f = float(n)
    if fill_mode == "reflect":
        if n == 1:
            return ops.zeros_like(c)
        m = ops.floormod(c + 0.5, 2.0 * n_f)
        c = ops.where(ops.greater_equal(m, n_f), 2.0 * n_f - m, m) - 0.5
    elif fill_mode == "wrap":
        c = ops.floormod(c, n_f)
    elif fill_mode == "constant":
        return c
    return ops.minimum(ops.maximum(c, 0.0), n_f - 1.0)


def _transform(x, matrix, fill_mode, interpolation, fill_value):
    """Output pixel (col, row) of image b reads the input at
    (a0 col + a1 row + a2, b0 col + b1 row + b2), matrix[b] = [a0, a1, a2, b0, b1, b2]."""
    h, w = x.shape.as_list()[1:3]
    channels = ops.shape(x)[3]
    n = ops.shape(x)[0]
    rows, cols = np.meshgrid(np.arange(h, dtype=np.float32), np.arange(w, dtype=np.float32), indexing="ij")
    rows_t, cols_t = ops.convert_to_tensor(rows.reshape(1, h, w)), ops.convert_to_tensor(cols.reshape(1, h, w))

    def coef(i):
        return ops.reshape(matrix[:, i], [-1, 1, 1])

    src_x = _map_coord(coef(0) * cols_t + coef(1) * rows_t + coef(2), w, fill_mode)
    src_y = _map_coord(coef(3) * cols_t + coef(4) * rows_t + coef(5), h, fill_mode)
    flat = ops.reshape(x, ops.stack([-1, channels]))
    base = ops.reshape(ops.range(n) * (h * w), [-1, 1, 1])
    fill = ops.cast(ops.convert_to_tensor(float(fill_value)), x.dtype)

    def read(yi, xi):
        inside = ops.logical_and(ops.logical_and(ops.greater_equal(yi, 0), ops.less(yi, h)),
                                 ops.logical_and(ops.greater_equal(xi, 0), ops.less(xi, w)))
        idx = base + ops.minimum(ops.maximum(yi, 0), h - 1) * w + ops.minimum(ops.maximum(xi, 0), w - 1)
        values = ops.gather(flat, idx)
        return ops.where(ops.expand_dims(inside, -1), values, fill)

    if interpolation == "nearest":
        return read(ops.cast(ops.floor(src_y + 0.5), dt.int32), ops.cast(ops.floor(src_x + 0.5), dt.int32))
    y0f, x0f = ops.floor(src_y), ops.floor(src_x)
    wy, wx = ops.expand_dims(ops.cast(src_y - y0f, x.dtype), -1), ops.expand_dims(ops.cast(src_x - x0f, x.dtype), -1)
    y0, x0 = ops.cast(y0f, dt.int32), ops.cast(x0f, dt.int32)
    top = read(y0, x0) * (1.0 - wx) + read(y0, x0 + 1) * wx
    bottom = read(y0 + 1, x0) * (1.0 - wx) + read(y0 + 1, x0 + 1) * wx
    return top * (1.0 - wy) + bottom * wy


class _Affine(_Random):
    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if fill_mode not in _FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Only `reflect`, `wrap`, `constant` and "
                                      "`nearest` are supported.")
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Only `nearest` and `bilinear` are "
                                      "supported.")
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, fill_value

    def _augment(self, x):
        h, w = _static_hw(self, x)
        return _transform(x, self._matrix(ops.shape(x)[0:1], h, w), self.fill_mode, self.interpolation,
                          self.fill_value)


class RandomRotation(_Affine):
    """When training, rotates each image by a random angle of factor * 2 pi
    (factor: a float f for [-f, f], or (lower, upper)) about its center."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.factor = factor
        self._lo, self._hi = _range(factor, "factor")

    def _matrix(self, n, h, w):
        angle = self._uniform(n, self._lo * 2 * math.pi, self._hi * 2 * math.pi)
        cos, sin = ops.cos(angle), ops.sin(angle)
        x_off = ((w - 1) - (cos * (w - 1) - sin * (h - 1))) / 2.0
        y_off = ((h - 1) - (sin * (w - 1) + cos * (h - 1))) / 2.0
        return ops.stack([cos, -sin, x_off, sin, cos, y_off], axis=1)


class RandomZoom(_Affine):
    """When training, zooms each image about its center by 1 + a random factor
    (a positive factor zooms out); width_factor=None keeps the aspect ratio."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h = _range(height_factor, "height_factor")
        self._w = None if width_factor is None else _range(width_factor, "width_factor")

    def _matrix(self, n, h, w):
        zoom_h = self._uniform(n, 1.0 + self._h[0], 1.0 + self._h[1])
        zoom_w = zoom_h if self._w is None else self._uniform(n, 1.0 + self._w[0], 1.0 + self._w[1])
        zeros = ops.zeros_like(zoom_h)
        return ops.stack([zoom_w, zeros, (w - 1) / 2.0 * (1.0 - zoom_w), zeros, zoom_h, (h - 1) / 2.0 * (1.0 - zoom_h)],
                         axis=1)


class RandomTranslation(_Affine):
    """When training, shifts each image by random fractions of its height and width."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h = _range(height_factor, "height_factor")
        self._w = _range(width_factor, "width_factor")

    def _matrix(self, n, h, w):
        dy = self._uniform(n, self._h[0], self._h[1]) * float(h)
        dx = self._uniform(n, self._w[0], self._w[1]) * float(w)
        ones, zeros = ops.ones_like(dy), ops.zeros_like(dy)
        return ops.stack([ones, zeros, -dx, zeros, ones, -dy], axis=1)


class RandomContrast(_Random):
    """When training, (x - mean) * c + mean per image and channel, c uniform in
    [1 - lower, 1 + upper], clipped to [0, 255]."""

    def __init__(self, factor, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = factor
        lo, hi = (factor if isinstance(factor, (list, tuple)) else (factor, factor))
        if lo < 0 or hi < 0:
            raise ValueError(f"`factor` must be non-negative, got {factor!r}")
        self._lo, self._hi = 1.0 - float(lo), 1.0 + float(hi)

    def _augment(self, x):
        c = ops.cast(self._uniform(ops.stack([ops.shape(x)[0], 1, 1, 1]), self._lo, self._hi), x.dtype)
        mean = ops.reduce_mean(x, axis=[1, 2], keepdims=True)
        return ops.minimum(ops.maximum((x - mean) * c + mean, 0.0), 255.0)


class RandomBrightness(_Random):
    """When training, adds factor * (value range) to each image (factor uniform in
    [lower, upper]), clipped to value_range."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor, self.value_range = factor, tuple(value_range)
        self._lo, self._hi = _range(factor, "factor")
        if self._lo < -1 or self._hi > 1:
            raise ValueError(f"`factor` must be in [-1.0, 1.0], got {factor!r}")

    def _augment(self, x):
        lo, hi = float(self.value_range[0]), float(self.value_range[1])
        delta = self._uniform(ops.stack([ops.shape(x)[0], 1, 1, 1]), self._lo, self._hi) * (hi - lo)
        return ops.minimum(ops.maximum(x + ops.cast(delta, x.dtype), lo), hi)

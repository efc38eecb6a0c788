"""tf.keras.backend: the session-wide settings a Keras program reads or resets."""
from __future__ import annotations

__all__ = ["clear_session", "epsilon", "set_epsilon", "floatx", "set_floatx", "image_data_format",
           "set_image_data_format", "learning_phase", "random_normal", "random_uniform", "shape", "int_shape",
           "mean", "sum", "square", "sqrt", "exp", "log", "abs", "maximum", "minimum", "clip", "cast", "dot",
           "concatenate", "reshape", "ones_like", "zeros_like", "softmax", "sigmoid", "tanh", "relu", "variable",
           "get_value", "set_value"]

_state = {"epsilon": 1e-7, "floatx": "float32"}


def clear_session(free_memory=True):
    """Forget the layer names given so far (the next Dense is `dense` again), as Keras does."""
    from . import _layer

    with _layer._name_lock:
        _layer._name_counts.clear()


def epsilon():
    """The fuzz factor Keras adds to denominators (1e-7)."""
    return _state["epsilon"]


def set_epsilon(value):
    """Set the value epsilon() returns."""
    _state["epsilon"] = float(value)


def floatx():
    """The default float type of layers' weights and computations ('float32')."""
    return _state["floatx"]


def set_floatx(value):
    """Set the default float type of layers created afterwards ('float16', 'float32' or 'float64')."""
    if value not in ("float16", "float32", "float64", "bfloat16"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'float16', 'float32', 'float64'}}")
    _state["floatx"] = str(value)


def image_data_format():
    """'channels_last': the only image layout this runtime has."""
    return "channels_last"


def set_image_data_format(data_format):
    """Only 'channels_last' is supported."""
    if data_format != "channels_last":
        raise NotImplementedError("only data_format='channels_last' is supported by this runtime")


def learning_phase():
    """0: outside fit, layers run in inference mode unless called with training=True."""
    return 0


# tf.keras 2's backend functions that older programs call as K.mean(...) ---------------------------
def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal random values of the given shape (a list that may hold scalar tensors)."""
    from autograph_cli.runtime import ops

    return ops.random_normal(shape, mean, stddev, dtype=dtype or floatx(), seed=seed)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform random values in [minval, maxval)."""
    from autograph_cli.runtime import ops

    return ops.random_uniform(shape, minval, maxval, dtype=dtype or floatx(), seed=seed)


def shape(x):
    """The shape of x as a tensor (known at run time)."""
    from autograph_cli.runtime import ops

    return ops.shape(x)


def int_shape(x):
    """The static shape of x as a tuple (None where unknown)."""
    dims = x.shape.as_list() if hasattr(x.shape, "as_list") else list(x.shape)
    return tuple(dims)


def _reduce(name):
    def fn(x, axis=None, keepdims=False):
        from autograph_cli.runtime import ops

        return getattr(ops, name)(x, axis=axis, keepdims=keepdims)

    return fn


mean = _reduce("reduce_mean")
mean.__name__, mean.__doc__ = "mean", "The mean of x along axis (all axes by default)."
sum = _reduce("reduce_sum")  # noqa: A001 - Keras' name
sum.__name__, sum.__doc__ = "sum", "The sum of x along axis (all axes by default)."


def _unary(name, doc):
    def fn(x):
        from autograph_cli.runtime import ops

        return getattr(ops, name)(x)

    fn.__name__, fn.__doc__ = name, doc
    return fn


square = _unary("square", "x ** 2, element-wise.")
sqrt = _unary("sqrt", "The square root of x, element-wise.")
exp = _unary("exp", "e ** x, element-wise.")
log = _unary("log", "The natural logarithm of x, element-wise.")
abs = _unary("abs", "|x|, element-wise.")  # noqa: A001
sigmoid = _unary("sigmoid", "The sigmoid of x, element-wise.")
tanh = _unary("tanh", "The hyperbolic tangent of x, element-wise.")
relu = _unary("relu", "max(x, 0), element-wise.")
ones_like = _unary("ones_like", "Ones with the shape and dtype of x.")
zeros_like = _unary("zeros_like", "Zeros with the shape and dtype of x.")


def maximum(x, y):
    """The element-wise maximum of x and y."""
    from autograph_cli.runtime import ops

    return ops.maximum(x, y)


def minimum(x, y):
    """The element-wise minimum of x and y."""
    from autograph_cli.runtime import ops

    return ops.minimum(x, y)


def clip(x, min_value, max_value):
    """x limited to [min_value, max_value]."""
    from autograph_cli.runtime import ops

    return ops.minimum(ops.maximum(x, min_value), max_value)


def cast(x, dtype):
    """x converted to dtype."""
    from autograph_cli.runtime import ops

    return ops.cast(x, dtype)


def dot(x, y):
    """The matrix product of x and y."""
    from autograph_cli.runtime import ops

    return ops.matmul(x, y)


def concatenate(tensors, axis=-1):
    """The tensors joined along axis."""
    from autograph_cli.runtime import ops

    return ops.concat(list(tensors), axis)


def reshape(x, shape):
    """x with a new shape."""
    from autograph_cli.runtime import ops

    return ops.reshape(x, shape)


def softmax(x, axis=-1):
    """The softmax of x along axis."""
    from autograph_cli.runtime.ops import nn

    return nn.softmax(x, axis=axis)


def variable(value, dtype=None, name=None):
    """A tf.Variable holding value."""
    from autograph_cli.runtime.variables import Variable

    return Variable(value, dtype=dtype or floatx(), name=name)


def get_value(x):
    """The numpy value of a variable or tensor."""
    return x.numpy()


def set_value(x, value):
    """Assign value to the variable x."""
    x.assign(value)

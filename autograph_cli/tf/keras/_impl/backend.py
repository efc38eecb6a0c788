"""tf.keras.backend: the session-wide settings a Keras program reads or resets."""
from __future__ import annotations

__all__ = ["clear_session", "epsilon", "set_epsilon", "floatx", "set_floatx", "image_data_format",
           "set_image_data_format", "learning_phase"]

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

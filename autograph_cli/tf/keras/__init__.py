"""tf.keras: a Keras subset on the numpy runtime (layers, Sequential and
subclassed models, optimizers, losses, metrics, compile/fit/evaluate/predict)."""
import sys as _sys

from . import (activations, backend, callbacks, constraints, initializers, layers, losses, metrics, models,
               optimizers, preprocessing, regularizers, saving, utils)
from .layers import Input, Layer
from .models import Model, Sequential

__all__ = [
    "activations", "backend", "callbacks", "constraints", "initializers", "layers", "losses", "metrics", "models",
    "optimizers", "preprocessing", "regularizers", "saving", "utils", "Input", "Layer", "Model", "Sequential",
]


from autograph_cli.tf import _docs  # noqa: E402

_docs.apply("tf.keras", _sys.modules[__name__])

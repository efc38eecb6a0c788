"""tf.keras: a Keras subset on the numpy runtime (layers, Sequential and
subclassed models, optimizers, losses, metrics, compile/fit/evaluate/predict)."""
import sys as _sys

from . import activations, callbacks, initializers, layers, losses, metrics, models, optimizers, regularizers
from .layers import Input, Layer
from .models import Model, Sequential

__all__ = [
    "activations", "callbacks", "initializers", "layers", "losses", "metrics", "models", "optimizers", "regularizers", "Input",
    "Layer", "Model", "Sequential", "utils",
]


class _Utils:
    @staticmethod
    def set_random_seed(seed):
        import random

        import numpy as np

        from autograph_cli.runtime import ops

        random.seed(seed)
        np.random.seed(seed)
        ops.set_random_seed(seed)

    @staticmethod
    def to_categorical(y, num_classes=None, dtype="float32"):
        import numpy as np

        y = np.asarray(y, dtype="int64").reshape(-1)
        n = int(num_classes or (y.max() + 1))
        return np.eye(n, dtype=dtype)[y]


utils = _Utils


from autograph_cli.tf import _docs  # noqa: E402

_docs.apply("tf.keras", _sys.modules[__name__])

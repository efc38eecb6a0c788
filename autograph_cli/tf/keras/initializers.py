"""tf.keras.initializers: callables (shape, dtype) -> tensor. Random ones
draw from the runtime's generators, so `tf.random.set_seed` makes them
repeatable."""
# The implementation is _impl/initializers.py (edit it there); this module publishes its __all__ only.
from ._impl.initializers import *  # noqa: F403
from ._impl.initializers import __all__  # noqa: F401

"""tf.keras.activations."""
# The implementation is _impl/activations.py (edit it there); this module publishes its __all__ only.
from ._impl.activations import *  # noqa: F403
from ._impl.activations import __all__  # noqa: F401

"""tf.keras.layers: the layers a small network needs (channels-last)."""
# The implementation is _impl/layers.py (edit it there); this module publishes its __all__ only.
from ._impl.layers import *  # noqa: F403
from ._impl.layers import __all__  # noqa: F401

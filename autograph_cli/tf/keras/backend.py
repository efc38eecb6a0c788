"""tf.keras.backend: the session-wide settings a Keras program reads or resets."""
# The implementation is _impl/backend.py (edit it there); this module publishes its __all__ only.
from ._impl.backend import *  # noqa: F403
from ._impl.backend import __all__  # noqa: F401

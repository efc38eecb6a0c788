"""tf.keras.regularizers: weight and activity penalties (L1, L2, L1L2)."""
# The implementation is _impl/regularizers.py (edit it there); this module publishes its __all__ only.
from ._impl.regularizers import *  # noqa: F403
from ._impl.regularizers import __all__  # noqa: F401

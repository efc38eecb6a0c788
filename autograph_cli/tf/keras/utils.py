"""tf.keras.utils: seeding, one-hot labels, padding sequences, normalizing."""
# The implementation is _impl/utils.py (edit it there); this module publishes its __all__ only.
from ._impl.utils import *  # noqa: F403
from ._impl.utils import __all__  # noqa: F401

"""tf.keras.losses: loss classes (mean over the batch) and function forms
(one value per sample)."""
# The implementation is _impl/losses.py (edit it there); this module publishes its __all__ only.
from ._impl.losses import *  # noqa: F403
from ._impl.losses import __all__  # noqa: F401

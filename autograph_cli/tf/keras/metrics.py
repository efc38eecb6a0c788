"""tf.keras.metrics: streaming metrics kept in non-trainable variables
(update_state / result / reset_state), usable inside a tf.function."""
# The implementation is _impl/metrics.py (edit it there); this module publishes its __all__ only.
from ._impl.metrics import *  # noqa: F403
from ._impl.metrics import __all__  # noqa: F401

"""tf.keras.constraints: weight projections applied after each optimizer update."""
# The implementation is _impl/constraints.py (edit it there); this module publishes its __all__ only.
from ._impl.constraints import *  # noqa: F403
from ._impl.constraints import __all__  # noqa: F401

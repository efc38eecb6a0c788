"""tf.keras.saving: model.save / load_model (.keras archives) and custom-object registration."""
# The implementation is _impl/saving.py (edit it there); this module publishes its __all__ only.
from ._impl.saving import *  # noqa: F403
from ._impl.saving import __all__  # noqa: F401

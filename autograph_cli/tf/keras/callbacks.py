"""tf.keras.callbacks, and the progress output of fit/evaluate/predict.

On a terminal (and without NO_COLOR) verbose=1 draws a rich progress bar per
epoch the way Keras does (`32/32 ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - loss: ...`);
elsewhere, and with verbose=2, one plain line per epoch; verbose=0 prints
nothing."""
# The implementation is _impl/callbacks.py (edit it there); this module publishes its __all__ only.
from ._impl.callbacks import *  # noqa: F403
from ._impl.callbacks import __all__  # noqa: F401

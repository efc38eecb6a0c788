"""tf.keras.preprocessing: the legacy helpers older Keras programs use,
`sequence.pad_sequences` and `text.Tokenizer`."""
# The implementation is _impl/preprocessing.py (edit it there); this module publishes its __all__ only.
from ._impl.preprocessing import *  # noqa: F403
from ._impl.preprocessing import __all__  # noqa: F401

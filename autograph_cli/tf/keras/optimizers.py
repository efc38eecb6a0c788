"""tf.keras.optimizers: SGD (momentum, Nesterov), Adam, RMSprop, Adagrad.

As in Keras, the step counter and the learning-rate variable are created with
the optimizer (outside any trace), the slot variables by the first
`apply_gradients`: inside a `tf.function` that makes a second optimizer with
slots passed to an already-traced function raise the seeds' "tf.function only
supports singleton tf.Variables created on the first call" error, while a
plain SGD step creates no variable and so traces once."""
# The implementation is _impl/optimizers.py (edit it there); this module publishes its __all__ only.
from ._impl.optimizers import *  # noqa: F403
from ._impl.optimizers import __all__  # noqa: F401

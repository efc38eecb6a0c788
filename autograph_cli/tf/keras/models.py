"""tf.keras.Model and Sequential: compile / fit / evaluate / predict.

fit runs `train_step` (forward pass, GradientTape, apply_gradients, metric
updates) once per batch; evaluate and predict run `test_step` and
`predict_step`. Those steps are traced with `tf.function` (one trace per batch
shape). The train step is traced only when the runtime supports a
GradientTape inside a traced function (`TRACE_TRAIN_STEP` below: None probes
the runtime once); otherwise it runs eagerly."""
# The implementation is _impl/models.py (edit it there); this module publishes its __all__ only.
from ._impl.models import *  # noqa: F403
from ._impl.models import __all__  # noqa: F401

# A Keras layer whose call runs a staged loop over a Python attribute
# (self.steps) and a tensor loop whose bound comes from the input's shape;
# self.calls (a Python int) counts traces, not calls.
import numpy as np
import autograph_cli.tf as tf

class Smoother(tf.keras.layers.Layer):
    def __init__(self, steps, alpha):
        super().__init__()
        self.steps = steps
        self.alpha = alpha
        self.calls = 0

    def call(self, x):
        self.calls += 1
        y = x
        for _ in range(self.steps):  # Python loop: unrolled
            y = self.alpha * y + (1 - self.alpha) * tf.reduce_mean(y, axis=1, keepdims=True)
        acc = tf.zeros_like(y[:, 0])
        for j in tf.range(tf.shape(y)[1]):
            acc += y[:, j] * tf.cast(j + 1, tf.float32)
        return acc

layer = Smoother(3, 0.5)
f = tf.function(layer)
rng = np.random.RandomState(1)
x = rng.rand(4, 5).astype(np.float32)

def ref(x):
    y = x.copy()
    for _ in range(3):
        y = 0.5 * y + 0.5 * y.mean(axis=1, keepdims=True)
    return (y * np.arange(1, y.shape[1] + 1)).sum(axis=1)

print(np.allclose(f(tf.constant(x)).numpy(), ref(x), atol=1e-5))
print(np.allclose(f(tf.constant(x * 2)).numpy(), ref(x * 2), atol=1e-5))
print("python calls", layer.calls)
print(np.allclose(layer(tf.constant(x)).numpy(), ref(x), atol=1e-5), layer.calls)

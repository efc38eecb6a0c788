# tf.custom_gradient (a gradient-clipping identity and a numerically stable
# log1pexp) used inside a GradientTape training step in tf.function.
import numpy as np
import autograph_cli.tf as tf

@tf.custom_gradient
def clip_grad(x):
    def grad(dy):
        return tf.clip_by_value(dy, -0.5, 0.5)
    return tf.identity(x), grad

@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)
    def grad(dy):
        return dy * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad

w = tf.Variable([1.0, -2.0, 0.5])
xs = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [-1.0, 0.0, 1.0]], np.float32)
ys = np.array([1.0, 0.0, 2.0], np.float32)

@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        pred = tf.linalg.matvec(x, clip_grad(w)) if hasattr(tf.linalg, "matvec") else tf.reshape(x @ tf.reshape(clip_grad(w), [-1, 1]), [-1])
        loss = tf.reduce_mean(log1pexp(pred - y))
    g = tape.gradient(loss, w)
    w.assign_sub(0.1 * g)
    return loss, g

wn = np.array([1.0, -2.0, 0.5], np.float32)
ok = True
for _ in range(5):
    loss, g = step(tf.constant(xs), tf.constant(ys))
    z = xs @ wn - ys
    ref_loss = np.mean(np.log1p(np.exp(z)))
    dz = (1 - 1 / (1 + np.exp(z))) / len(z)
    ref_g = np.clip(xs.T @ dz, -0.5, 0.5)
    ok &= np.allclose(float(loss), ref_loss, atol=1e-5) and np.allclose(g.numpy(), ref_g, atol=1e-5)
    wn = wn - 0.1 * ref_g
print(ok, np.allclose(w.numpy(), wn, atol=1e-5))
x = tf.constant(100.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = log1pexp(x)
print(float(t.gradient(y, x)))

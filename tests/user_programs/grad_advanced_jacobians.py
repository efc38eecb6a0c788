# "Advanced automatic differentiation": jacobian of a vector target, of a
# layer's output w.r.t. its kernel, batch_jacobian, hessian from nested
# tapes, and a gradient penalty (the gradient of an input gradient's norm).
import numpy as np
import autograph_cli.tf as tf

x = tf.linspace(-2.0, 2.0, 5)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.sigmoid(x)
dy_dx = tape.jacobian(y, x)
s = 1 / (1 + np.exp(-np.linspace(-2.0, 2.0, 5)))
print(dy_dx.shape, np.allclose(dy_dx.numpy(), np.diag(s * (1 - s)), atol=1e-6))

tf.random.set_seed(0)
xb = tf.random.normal([7, 5])
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
with tf.GradientTape(persistent=True) as tape:
    y = layer(xb)
j = tape.jacobian(y, layer.kernel)
print(y.shape, layer.kernel.shape, j.shape)
# d y[i, o] / d k[r, c] = relu'(z[i, o]) * x[i, r] * (o == c)
xn, kn, bn = xb.numpy(), layer.kernel.numpy(), layer.bias.numpy()
act = (xn @ kn + bn > 0).astype(np.float32)
expected = np.einsum("io,ir,oc->iorc", act, xn, np.eye(10))
print(np.allclose(j.numpy(), expected, atol=1e-5))
g = tape.gradient(y, layer.kernel)
print(np.allclose(tf.reduce_sum(j, axis=[0, 1]).numpy(), g.numpy(), atol=1e-5))

# batch_jacobian: each example's jacobian, in a tf.function
@tf.function
def per_example(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x @ tf.constant([[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]]))
    return tape.batch_jacobian(y, x)

xs = np.array([[0.1, 0.2], [0.3, -0.4], [1.0, 0.5], [-1.0, 2.0]], np.float32)
bj = per_example(tf.constant(xs))
m = np.array([[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]])
t = np.tanh(xs @ m)
ref = np.stack([(1 - t[i] ** 2)[:, None] * m.T for i in range(4)])
print(bj.shape, np.allclose(bj.numpy(), ref, atol=1e-5))

# hessian of a quadratic via nested tapes + jacobian
A = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)

@tf.function
def hessian(v):
    with tf.GradientTape() as t2:
        t2.watch(v)
        with tf.GradientTape() as t1:
            t1.watch(v)
            f = tf.reduce_sum(v * tf.linalg.matvec(tf.constant(A), v)) + tf.reduce_sum(v ** 3)
        g = t1.gradient(f, v)
    return g, t2.jacobian(g, v)

v0 = np.array([1.0, -2.0], np.float32)
g, h = hessian(tf.constant(v0))
print(np.allclose(g.numpy(), 2 * A @ v0 + 3 * v0 ** 2), np.allclose(h.numpy(), 2 * A + np.diag(6 * v0)))

# gradient penalty: d/dw || d f / d x ||^2 for f = sum(tanh(x w))
wv = tf.Variable([[0.5], [-1.0]])

@tf.function
def penalty(x):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            f = tf.reduce_sum(tf.tanh(x @ wv))
        gx = inner.gradient(f, x)
        p = tf.reduce_sum(gx ** 2)
    return p, outer.gradient(p, wv)

xp = np.array([[1.0, 2.0], [0.5, -0.5]], np.float32)
p, gw = penalty(tf.constant(xp))

def pen(wn):
    z = xp @ wn
    gx = (1 - np.tanh(z) ** 2) @ wn.T
    return (gx ** 2).sum()

w0 = np.array([[0.5], [-1.0]])
eps = 1e-6
num = np.array([[(pen(w0 + eps * np.eye(2)[i][:, None]) - pen(w0 - eps * np.eye(2)[i][:, None])) / (2 * eps)] for i in range(2)])
print(np.isclose(float(p), pen(w0), atol=1e-5), np.allclose(gw.numpy(), num, atol=1e-4))

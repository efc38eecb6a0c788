# "Introduction to gradients" with the tape inside tf.function: a persistent
# tape used for several gradients, a watched input, stop_gradient, jacobian
# and batch_jacobian of a tanh layer; checked against numpy.
import numpy as np
import autograph_cli.tf as tf

w = tf.Variable([[1.0, -2.0], [0.5, 3.0]], name="w")
b = tf.Variable([0.1, -0.1], name="b")

@tf.function
def step(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.nn.tanh(x @ w + b)
        loss = tf.reduce_sum(y ** 2)
        frozen = tf.stop_gradient(y) * y
        l2 = tf.reduce_sum(frozen)
    gw, gb = tape.gradient(loss, [w, b])
    gx = tape.gradient(loss, x)
    g2 = tape.gradient(l2, w)
    jac = tape.jacobian(y, x)
    bj = tape.batch_jacobian(y, x)
    del tape
    return gw, gb, gx, g2, jac, bj

x = tf.constant([[0.2, -0.4], [1.0, 0.3], [-0.5, 0.5]])
gw, gb, gx, g2, jac, bj = step(x)
print(gw.shape, gb.shape, gx.shape, jac.shape, bj.shape)
xn = x.numpy(); wn = w.numpy(); bn = b.numpy()
y = np.tanh(xn @ wn + bn)
dy = 2 * y * (1 - y ** 2)
print(np.allclose(gw, xn.T @ dy, atol=1e-5), np.allclose(gb, dy.sum(0), atol=1e-5), np.allclose(gx, dy @ wn.T, atol=1e-5))
print(np.allclose(g2, xn.T @ (y * (1 - y**2)), atol=1e-5))
d = (1 - y ** 2)
bjn = np.einsum('bi,ji->bij', d, wn)
print(np.allclose(bj, bjn, atol=1e-5))
jn = np.zeros((3, 2, 3, 2))
for i in range(3):
    jn[i, :, i, :] = bjn[i]
print(np.allclose(jac, jn, atol=1e-5))
print(step.experimental_get_tracing_count())

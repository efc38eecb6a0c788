# "Introduction to gradients": persistent tapes, watch, watch_accessed_variables,
# stop_recording, sources as dicts/lists, non-trainable variables, int sources,
# output_gradients and unconnected gradients, eagerly and inside tf.function.
import numpy as np
import autograph_cli.tf as tf

w = tf.Variable(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), name="w")
b = tf.Variable(tf.zeros(2, tf.float32), name="b")
x = tf.constant([[1.0, 2.0, 3.0]])

with tf.GradientTape(persistent=True) as tape:
    y = x @ w + b
    loss = tf.reduce_mean(y ** 2)
grads = tape.gradient(loss, {"w": w, "b": b})
xn = np.array([[1.0, 2.0, 3.0]])
yn = xn @ np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
dy = 2 * yn / yn.size
print(sorted(grads), np.allclose(grads["w"].numpy(), xn.T @ dy), np.allclose(grads["b"].numpy(), dy.sum(0)))
dl_dy = tape.gradient(loss, y)
print(np.allclose(dl_dy.numpy(), dy))
del tape

# watched variables, non-trainable variables, constants
x0 = tf.constant(3.0)
x1 = tf.Variable(2.0)
x2 = tf.Variable(2.0, trainable=False)
x3 = tf.Variable(2.0) + 1.0
with tf.GradientTape() as tape:
    y = (x1 ** 2) + (x2 ** 2) + (x3 ** 2) + x0 ** 2
dy = tape.gradient(y, [x0, x1, x2, x3])
print([None if g is None else float(g) for g in dy])
print([v.name for v in tape.watched_variables()])

with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x1)
    y0 = tf.math.sin(x0)
    y1 = tf.nn.softplus(x1)
    y = y0 + y1
print(float(tape.gradient(y, x1)), 1 / (1 + np.exp(-2.0)))

# stop_recording and integer sources
x = tf.constant(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    with tape.stop_recording():
        z = x * x * x
    total = y + z
print(float(tape.gradient(total, x)), tape.gradient(z, x) is None)
xi = tf.constant(10)
with tf.GradientTape() as g:
    g.watch(xi)
    yi = xi * xi
print(g.gradient(yi, xi))

# output_gradients (vector-Jacobian product) and unconnected gradients
x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x ** 3
vjp = tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.5, 0.0]))
print(np.allclose(vjp.numpy(), 3 * np.array([1.0, 4.0, 9.0]) * [1.0, 0.5, 0.0]))

v = tf.Variable(1.0)

@tf.function
def step(x):
    with tf.GradientTape(persistent=True) as tape:
        a = v * x
        b2 = a * a
        c = tf.constant(5.0)
    ga, gb = tape.gradient([a, b2], v), tape.gradient(b2, v)
    gc = tape.gradient(c, v, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return ga, gb, gc

ga, gb, gc = step(tf.constant(3.0))
# d(a + b2)/dv = x + 2 v x^2 = 3 + 18 ; d b2/dv = 18
print(float(ga), float(gb), float(gc))

# the state-changing op caveat: assign_add is not differentiable through
x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as tape:
    z = y * y
    x.assign_add(z)
print(tape.gradient(x, y))

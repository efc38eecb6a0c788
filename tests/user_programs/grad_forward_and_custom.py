# "Advanced automatic differentiation": forward mode (ForwardAccumulator
# jvp), custom gradients (a numerically stable log1pexp, gradient clipping in
# the backward pass), stop_gradient vs tape.stop_recording, gradients of a
# Keras layer's output w.r.t. its input, and a persistent tape giving
# several jacobian-vector products; checked against numpy.
import numpy as np
import autograph_cli.tf as tf

x = tf.constant([1.0, 2.0, 3.0])
tangent = tf.constant([1.0, 0.0, 0.5])
with tf.autodiff.ForwardAccumulator(primals=x, tangents=tangent) as acc:
    y = tf.reduce_sum(tf.sin(x) * x)
jvp = acc.jvp(y)
xn = np.array([1.0, 2.0, 3.0])
print(np.isclose(float(jvp), ((np.cos(xn) * xn + np.sin(xn)) * [1.0, 0.0, 0.5]).sum(), atol=1e-5))


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def grad_log1pexp(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = log1pexp(x)
    return tape.gradient(value, x)


print(float(grad_log1pexp(tf.constant(0.0))), float(grad_log1pexp(tf.constant(100.0))))
print(float(tf.function(grad_log1pexp)(tf.constant(100.0))))


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward


v = tf.Variable([3.0, 4.0])


@tf.function
def clipped_grad():
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(clip_gradients(v) * tf.constant([6.0, 8.0]))
    return tape.gradient(out, v)


print(np.allclose(clipped_grad().numpy(), np.array([6.0, 8.0]) * 0.5 / 10.0))

# stop_gradient blocks one path, stop_recording blocks everything recorded inside
x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape(persistent=True) as t:
    y_sq = y ** 2
    z = x ** 2 + tf.stop_gradient(y_sq)
    with t.stop_recording():
        w = x * y
grad = t.gradient(z, {"x": x, "y": y})
print(float(grad["x"]), grad["y"], t.gradient(w, x))
del t

# gradient w.r.t. a layer's input (a saliency map) in a tf.function
layer = tf.keras.layers.Dense(2, activation="tanh", kernel_initializer="ones", bias_initializer="zeros")


@tf.function
def saliency(inp):
    with tf.GradientTape() as tape:
        tape.watch(inp)
        out = tf.reduce_sum(layer(inp))
    return tape.gradient(out, inp)


xi = np.array([[0.1, -0.3, 0.2]], np.float32)
s = saliency(tf.constant(xi))
pre = xi.sum()
print(np.allclose(s.numpy(), np.full((1, 3), 2 * (1 - np.tanh(pre) ** 2)), atol=1e-6))

# several vector-Jacobian products from one persistent tape
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(a)
    b = tf.matmul(a, a)
vjps = [tape.gradient(b, a, output_gradients=tf.one_hot(i, 2)[None, :] * tf.ones([2, 1])) for i in range(2)]
an = np.array([[1.0, 2.0], [3.0, 4.0]])
for i, g in enumerate(vjps):
    up = np.zeros((2, 2))
    up[:, i] = 1
    print(np.allclose(g.numpy(), up @ an.T + an.T @ up))

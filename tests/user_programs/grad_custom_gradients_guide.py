# "Advanced automatic differentiation" / tf.custom_gradient recipes inside
# tf.function: gradient clipping in the backward pass, a straight-through
# estimator built from stop_gradient, the safe-where NaN trap, gradients
# w.r.t. nested structures (dicts of variables), output_gradients, and a
# custom gradient with a variable captured (the grad_fn's `variables`
# argument), each checked against hand-derived numbers.
import numpy as np
import autograph_cli.tf as tf


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward


@tf.function
def clipped_grad(v):
    with tf.GradientTape() as t:
        t.watch(v)
        output = clip_gradients(v * v)
    return t.gradient(output, v)


print(clipped_grad(tf.constant(2.0)))   # dy=1 clipped to 0.5, times 2v = 2.0

w = tf.Variable([0.3, 1.7, -0.6])


@tf.function
def ste_step():
    with tf.GradientTape() as tape:
        q = w + tf.stop_gradient(tf.round(w) - w)     # forward: round(w); backward: identity
        loss = tf.reduce_sum(tf.square(q - 1.0))
    g = tape.gradient(loss, w)
    return q, g


q, g = ste_step()
print(q.numpy().tolist(), g.numpy().tolist())


@tf.function
def unsafe_and_safe(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        unsafe = tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x))
        safe_x = tf.where(x > 0, x, tf.ones_like(x))
        safe = tf.where(x > 0, tf.sqrt(safe_x), tf.zeros_like(x))
    return tape.gradient(unsafe, x), tape.gradient(safe, x)


bad, good = unsafe_and_safe(tf.constant([4.0, 0.0, -1.0]))
print("unsafe:", bad.numpy().tolist(), "safe:", good.numpy().tolist())

params = {"dense": {"kernel": tf.Variable([[1.0], [2.0]]), "bias": tf.Variable([0.5])},
          "scale": tf.Variable(3.0)}


@tf.function
def nested_grads(x):
    with tf.GradientTape() as tape:
        y = (tf.matmul(x, params["dense"]["kernel"]) + params["dense"]["bias"]) * params["scale"]
        loss = tf.reduce_sum(y)
    return tape.gradient(loss, params)


grads = nested_grads(tf.constant([[1.0, 1.0], [2.0, 0.0]]))
print(sorted(grads), sorted(grads["dense"]))
print(grads["dense"]["kernel"].numpy().tolist(), grads["dense"]["bias"].numpy().tolist(), float(grads["scale"]))


@tf.function
def weighted_jvp(x, upstream):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stack([x[0] * x[1], x[0] + 3.0 * x[1]])
    return tape.gradient(y, x, output_gradients=upstream)


print(weighted_jvp(tf.constant([2.0, 5.0]), tf.constant([1.0, 10.0])))

scale = tf.Variable(2.0)


@tf.custom_gradient
def scaled_square(x):
    y = scale * x * x

    def grad_fn(dy, variables=None):
        dx = dy * 2.0 * scale * x
        dvars = [tf.reduce_sum(dy * x * x)]
        return dx, dvars
    return y, grad_fn


@tf.function
def custom_with_variable(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(scaled_square(x))
    return tape.gradient(y, [x, scale])


dx, dscale = custom_with_variable(tf.constant([1.0, 3.0]))
print(dx.numpy().tolist(), float(dscale))

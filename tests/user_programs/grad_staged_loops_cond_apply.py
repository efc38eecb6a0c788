# Gradients inside tf.function through a staged while loop, a TensorArray, a
# staged if, tf.while_loop, tf.cond and a custom_gradient; an optimizer's
# apply_gradients in a staged loop updating variables created outside.
import numpy as np
import autograph_cli.tf as tf

# gradients through while loops / TensorArrays / cond inside tf.function
v = tf.Variable(0.9)

@tf.function
def power_loop(x, n):
    with tf.GradientTape() as tape:
        acc = tf.constant(1.0)
        i = tf.constant(0)
        while i < n:
            acc = acc * v * x
            i += 1
        ta = tf.TensorArray(tf.float32, size=n)
        for j in tf.range(n):
            ta = ta.write(j, acc * tf.cast(j, tf.float32))
        out = tf.reduce_sum(ta.stack())
        if out > 0:
            out = out * 2.0
        else:
            out = -out
    return out, tape.gradient(out, v)

out, g = power_loop(tf.constant(1.5), tf.constant(3))
acc = (0.9 * 1.5) ** 3
print(np.isclose(float(out), 2 * acc * 3), np.isclose(float(g), 2 * 3 * 3 * 0.9 ** 2 * 1.5 ** 3))

# tf.while_loop explicit with gradient
@tf.function
def wl(x):
    with tf.GradientTape() as t:
        t.watch(x)
        _, y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, tf.sin(y)), [0, x])
    return y, t.gradient(y, x)

y, g = wl(tf.constant(0.7))
yn = 0.7; gn = 1.0
for _ in range(4):
    gn *= np.cos(yn); yn = np.sin(yn)
print(np.isclose(float(y), yn), np.isclose(float(g), gn))

# tf.cond with gradient
@tf.function
def cnd(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cond(x > 1.0, lambda: x ** 3, lambda: tf.exp(x))
    return t.gradient(y, x)
print(float(cnd(tf.constant(2.0))), round(float(cnd(tf.constant(0.0))), 4))

# custom_gradient inside function
@tf.custom_gradient
def clip_gradient(x):
    def grad(dy):
        return tf.clip_by_norm(dy, 0.5)
    return tf.identity(x), grad

@tf.function
def cg(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(clip_gradient(x) * 3.0)
    return t.gradient(y, x)
print(cg(tf.constant([1.0, 2.0])).numpy().round(4))

# optimizer apply_gradients in function with variables created outside
opt = tf.keras.optimizers.SGD(learning_rate=0.1)
a = tf.Variable(2.0)
c = tf.Variable(-1.0)

@tf.function
def train(xs, ys):
    for k in tf.range(3):
        with tf.GradientTape() as tape:
            pred = a * xs + c
            loss = tf.reduce_mean((pred - ys) ** 2)
        grads = tape.gradient(loss, [a, c])
        opt.apply_gradients(zip(grads, [a, c]))
    return loss

xs = tf.constant([0.0, 1.0, 2.0]); ys = tf.constant([1.0, 3.0, 5.0])
l = train(xs, ys)
an, cn = 2.0, -1.0
xn, yn2 = xs.numpy(), ys.numpy()
for k in range(3):
    p = an * xn + cn
    ln = np.mean((p - yn2) ** 2)
    ga = np.mean(2 * (p - yn2) * xn); gc = np.mean(2 * (p - yn2))
    an -= 0.1 * ga; cn -= 0.1 * gc
print(np.isclose(float(l), ln), np.isclose(a.numpy(), an), np.isclose(c.numpy(), cn), int(opt.iterations))

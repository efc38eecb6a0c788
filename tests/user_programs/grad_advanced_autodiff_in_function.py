# "Advanced automatic differentiation", each inside tf.function: stop_recording,
# reset, stop_gradient, a custom gradient (log1pexp), two tapes at once, a
# Newton step's second derivative, input-gradient regularization of a Dense
# layer, jacobians (scalar and tensor sources, pfor or not), batch_jacobian.
import numpy as np
import autograph_cli.tf as tf

# "Advanced automatic differentiation" inside tf.function
x = tf.Variable(2.0)
y = tf.Variable(3.0)

@tf.function
def stop_rec():
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    return t.gradient(z, {'x': x, 'y': y})
g = stop_rec()
print(float(g['x']), g['y'])

@tf.function
def reset_tape():
    reset = True
    with tf.GradientTape() as t:
        y_sq = y * y
        if reset:
            t.reset()
        z = x * x + y_sq
    return t.gradient(z, {'x': x, 'y': y})
g = reset_tape()
print(float(g['x']), g['y'])

@tf.function
def stop_grad():
    with tf.GradientTape() as t:
        y_sq = y ** 2
        z = x ** 2 + tf.stop_gradient(y_sq)
    return t.gradient(z, {'x': x, 'y': y})
g = stop_grad()
print(float(g['x']), g['y'])

# custom gradient with tf.function: gradient of log1pexp at 100
@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)
    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad

@tf.function
def grad_log1pexp(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = log1pexp(x)
    return tape.gradient(value, x)
print(float(grad_log1pexp(tf.constant(0.))), float(grad_log1pexp(tf.constant(100.))))

# multiple tapes
x0 = tf.constant(0.0)
x1 = tf.constant(0.0)
with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
    tape0.watch(x0)
    tape1.watch(x1)
    y0 = tf.math.sin(x0)
    y1 = tf.nn.sigmoid(x1)
    yy = y0 + y1
    ys = tf.reduce_sum(yy)
print(float(tape0.gradient(ys, x0)), float(tape1.gradient(ys, x1)))

# higher order: Newton's method step on a scalar inside tf.function
@tf.function
def newton(x):
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    return dy_dx, d2y_dx2
a, b = newton(tf.constant(1.0))
print(float(a), float(b))

# input gradient regularization
xin = tf.random.normal([7, 5], seed=1)
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)

@tf.function
def reg(xin):
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            t1.watch(xin)
            yv = layer(xin)
            out = tf.reduce_sum(layer(xin) ** 2)
        g1 = t1.gradient(out, xin)
        g1_mag = tf.norm(g1)
    dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
    return g1, dg1_mag
g1, dg = reg(xin)
print(g1.shape, [v.shape for v in dg])

# jacobian of a scalar source, a tensor source, and with experimental_use_pfor False
delta = tf.Variable(0.0)
@tf.function
def jac():
    xx = tf.linspace(-10.0, 10.0, 200 + 1)
    with tf.GradientTape() as tape:
        yy = tf.nn.sigmoid(xx + delta)
    dy_dx = tape.jacobian(yy, delta)
    return yy, dy_dx
yy, dy_dx = jac()
print(yy.shape, dy_dx.shape, np.allclose(dy_dx, yy * (1 - yy), atol=1e-6))

@tf.function
def jac2(xb):
    w = layer.kernel
    with tf.GradientTape(persistent=True) as tape:
        yb = layer(xb)
    j = tape.jacobian(yb, w)
    j2 = tape.jacobian(yb, w, experimental_use_pfor=False)
    return j, j2
j, j2 = jac2(xin)
print(j.shape, np.allclose(j, j2))
print(layer.kernel.shape)

# batch jacobian vs jacobian diagonal
xb = tf.random.normal([7, 5], seed=2)
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
@tf.function
def bj(xb):
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(xb)
        y = layer1(xb)
        y = layer2(y)
    jf = tape.jacobian(y, xb)
    jb = tape.batch_jacobian(y, xb)
    return jf, jb
jf, jb = bj(xb)
print(jf.shape, jb.shape)
jsum = tf.reduce_sum(jf, axis=2)
print(float(tf.reduce_max(tf.abs(jb - jsum))) < 1e-6)

# Dataset.from_generator with an output_signature feeding a training loop in
# tf.function; the generator runs again on each epoch.
import numpy as np
import autograph_cli.tf as tf

calls = []

def gen():
    calls.append(1)
    rng = np.random.RandomState(3)
    for _ in range(8):
        x = rng.randn(2).astype(np.float32)
        yield x, np.float32(3 * x[0] - 2 * x[1] + 1)

ds = tf.data.Dataset.from_generator(
    gen, output_signature=(tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.float32))).batch(4)

w = tf.Variable(tf.zeros([2]))
b = tf.Variable(0.0)

@tf.function
def epoch(ds, lr):
    total = tf.constant(0.0)
    for x, y in ds:
        with tf.GradientTape() as tape:
            pred = tf.reduce_sum(x * w, axis=1) + b
            loss = tf.reduce_mean((pred - y) ** 2)
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(lr * gw)
        b.assign_sub(lr * gb)
        total += loss
    return total

data = list(gen())
calls.clear()
X = np.stack([d[0] for d in data])
Y = np.array([d[1] for d in data])
wn, bn = np.zeros(2, np.float32), 0.0
ok = True
for e in range(3):
    tot = float(epoch(ds, tf.constant(0.1)))
    rt = 0.0
    for s in range(0, 8, 4):
        xb, yb = X[s:s + 4], Y[s:s + 4]
        err = xb @ wn + bn - yb
        rt += np.mean(err ** 2)
        wn = wn - 0.1 * (2 * xb.T @ err / 4)
        bn = bn - 0.1 * (2 * err.mean())
    ok &= np.isclose(tot, rt, rtol=1e-4)
print(ok, np.allclose(w.numpy(), wn, atol=1e-5), np.isclose(float(b.numpy()), bn, atol=1e-5))
print("generator runs", len(calls))
print(ds.element_spec[0].shape if hasattr(ds, "element_spec") else None)

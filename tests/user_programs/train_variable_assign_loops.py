# tf.Variable assign/assign_add/assign_sub in staged for and while loops,
# with a read after each write (ordering) and a Python-side counter.
import numpy as np
import autograph_cli.tf as tf

v = tf.Variable(0.0)
hist = tf.Variable(tf.zeros([5]))
steps = tf.Variable(0, dtype=tf.int64)

@tf.function
def run(xs):
    for i in tf.range(tf.shape(xs)[0]):
        v.assign_add(xs[i])
        if v > 3.0:
            v.assign_sub(1.0)
        hist[i].assign(v.read_value() * 2) if hasattr(hist[i], "assign") else None
        steps.assign_add(1)
    k = tf.constant(0)
    while v > 0.0:
        v.assign(v - 0.75)
        k += 1
    return v.read_value(), k

xs = np.array([1.0, 2.5, 0.5, 2.0, -1.0], np.float32)
val, k = run(tf.constant(xs))
pv, ph = 0.0, []
for x in xs:
    pv += x
    if pv > 3.0:
        pv -= 1.0
    ph.append(pv * 2)
pk = 0
while pv > 0.0:
    pv -= 0.75
    pk += 1
print(np.isclose(float(val), pv), int(k) == pk, np.allclose(hist.numpy(), ph), int(steps.numpy()))
run(tf.constant(xs))
print(int(steps.numpy()), steps.dtype == tf.int64)

# tf.range with negative and float steps, in staged for loops and as values.
import numpy as np
import autograph_cli.tf as tf

print(tf.range(10, 0, -3).numpy().tolist(), list(range(10, 0, -3)))
print(np.allclose(tf.range(0.0, 1.0, 0.25).numpy(), np.arange(0.0, 1.0, 0.25)))
print(tf.range(5, 5).numpy().tolist(), tf.range(1, 5, -1).numpy().tolist())
print(tf.range(3.0, 0.0, -0.5).dtype == tf.float32, tf.range(3, 0.0, -0.5).shape)

@tf.function
def countdown(start, step):
    total = tf.constant(0)
    seen = tf.constant(0)
    for i in tf.range(start, 0, step):
        total += i * i
        seen += 1
    return total, seen

for start, step in [(10, -3), (7, -1), (0, -2), (9, -9)]:
    t, s = countdown(tf.constant(start), tf.constant(step))
    r = list(range(start, 0, step))
    print(start, step, int(t) == sum(v * v for v in r), int(s) == len(r))

@tf.function
def float_sum(lo, hi, dx):
    acc = tf.constant(0.0)
    for v in tf.range(lo, hi, dx):
        acc += v * dx
    return acc

print(np.isclose(float(float_sum(tf.constant(0.0), tf.constant(1.0), tf.constant(0.125))),
                 sum(v * 0.125 for v in np.arange(0.0, 1.0, 0.125))))

# Nested tf.functions calling each other, each with early returns that depend
# on tensors; the outer one loops and calls the inner ones.
import autograph_cli.tf as tf

@tf.function
def sign_class(x):
    if x < 0:
        return tf.constant(-1)
    if x == 0:
        return tf.constant(0)
    return tf.constant(1)

@tf.function
def first_multiple(xs, k):
    for i in tf.range(tf.size(xs)):
        if xs[i] % k == 0:
            return i
    return tf.constant(-1)

@tf.function
def summary(xs):
    total = tf.constant(0)
    for x in xs:
        total += sign_class(x)
    idx = first_multiple(xs, 3)
    if idx < 0:
        return total, idx, tf.constant(0)
    return total, idx, xs[idx]

def summary_py(xs):
    total = sum((x > 0) - (x < 0) for x in xs)
    for i, x in enumerate(xs):
        if x % 3 == 0:
            return total, i, x
    return total, -1, 0

for xs in ([4, -2, 9, 0, 5], [1, 2, 4], [-3], [7, 5, -6, 12]):
    got = tuple(int(v) for v in summary(tf.constant(xs)))
    print(got, got == summary_py(xs))

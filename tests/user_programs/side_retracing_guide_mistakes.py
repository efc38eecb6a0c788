# The guides' common mistakes: print runs at trace time only, tf.print every
# call; Python scalars retrace per value; a Python list mutated in the
# function is appended once per trace; a global Python value is captured.
import autograph_cli.tf as tf

log = []
scale = 2

@tf.function
def f(x, n):
    print("tracing with", n)
    tf.print("running with", n, x)
    log.append(n)
    return x * n * scale

f(tf.constant(1), 2)
f(tf.constant(5), 2)
f(tf.constant(1), 3)
f(tf.constant(1), tf.constant(4))
f(tf.constant(2), tf.constant(5))
print(len(log), log[:3])
scale = 10
print(int(f(tf.constant(1), 2)), "captured scale kept")
print(int(f.experimental_get_tracing_count()) if hasattr(f, "experimental_get_tracing_count") else None)

@tf.function
def count_positive(xs):
    n = 0
    for x in xs:
        if x > 0:
            n += 1
    return n

print(int(count_positive(tf.constant([1, -2, 3, 4]))))

# Recursion inside tf.function: a recursive helper whose depth is a Python int
# is unrolled at trace time; its early returns depend on tensors.
import autograph_cli.tf as tf

def power_sum(x, depth):
    if depth == 0:
        return tf.zeros_like(x)
    if tf.reduce_any(x > 100.0):
        return x
    return x + power_sum(x * 2.0, depth - 1)

traces = []

@tf.function
def f(x, depth):
    traces.append(depth)
    return power_sum(x, depth)

def ref(x, depth):
    if depth == 0:
        return 0.0
    if x > 100.0:
        return x
    return x + ref(x * 2.0, depth - 1)

for x, d in [(1.0, 3), (30.0, 4), (1.0, 10), (5.0, 3)]:
    print(x, d, float(f(tf.constant(x), d)) == ref(x, d))
print("traces", traces)

def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)

@tf.function
def g(x):
    return x * fact(5)

print(int(g(tf.constant(2))))

# tf.debugging.assert_* inside a staged loop: the assertion runs every
# iteration when the graph runs; a failing one raises InvalidArgumentError
# (caught in Python) and a passing run returns normally.
import autograph_cli.tf as tf

@tf.function
def checked_sqrt_sum(xs):
    total = tf.constant(0.0)
    for x in xs:
        tf.debugging.assert_non_negative(x, message="negative input")
        total += tf.sqrt(x)
    tf.debugging.assert_less(total, 100.0, message="total too large")
    return total

print(float(checked_sqrt_sum(tf.constant([1.0, 4.0, 9.0]))))
for bad in ([1.0, -4.0, 9.0], [2500.0, 2500.0, 2500.0]):
    try:
        checked_sqrt_sum(tf.constant(bad))
        print("no error")
    except tf.errors.InvalidArgumentError as e:
        print("InvalidArgumentError", "negative input" in str(e), "total too large" in str(e))

@tf.function
def guarded(n):
    i = tf.constant(0)
    while i < n:
        tf.debugging.assert_equal(i % 7 != 6, True, message="hit a multiple")
        i += 1
    return i

print(int(guarded(tf.constant(5))))
try:
    guarded(tf.constant(10))
except tf.errors.InvalidArgumentError as e:
    print("caught", "hit a multiple" in str(e))

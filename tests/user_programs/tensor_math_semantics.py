# "Customization basics: tensors and operations": the integer and float
# rules users run into -- floor division and modulo of negatives, casts that
# truncate, rounding half to even, integer overflow wrapping, division of
# ints giving floats, reductions over axes with keepdims, and the same
# results inside tf.function; every value against numpy's.
import numpy as np
import autograph_cli.tf as tf

a = np.array([7, -7, 7, -7], np.int32)
b = np.array([2, 2, -2, -2], np.int32)
ta, tb = tf.constant(a), tf.constant(b)
print((ta // tb).numpy().tolist(), (a // b).tolist())
print((ta % tb).numpy().tolist(), (a % b).tolist())
print(tf.math.floormod(ta, tb).numpy().tolist(), tf.math.truncatediv(ta, tb).numpy().tolist(), np.trunc(a / b).astype(int).tolist())
print(tf.math.truncatemod(ta, tb).numpy().tolist(), np.fmod(a, b).tolist())
print((ta / tb).dtype, (ta / tb).numpy().tolist())
print(tf.cast(tf.constant([-1.7, -0.5, 0.5, 1.7, 2.5]), tf.int32).numpy().tolist())
print(tf.round(tf.constant([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])).numpy().tolist(), np.round([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]).tolist())
big = tf.constant([2147483647], tf.int32)
print((big + 1).numpy().tolist(), tf.constant(200, tf.uint8) + tf.constant(100, tf.uint8))
m = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
tm = tf.constant(m)
print(tf.reduce_sum(tm, axis=[0, 2]).numpy().tolist(), m.sum(axis=(0, 2)).tolist())
print(tf.reduce_mean(tm, axis=-1, keepdims=True).shape, tf.reduce_max(tm, axis=1).numpy().tolist() == m.max(1).tolist())
print(tf.reduce_mean(tf.constant([1, 2])).numpy(), tf.reduce_mean(tf.constant([1.0, 2.0])).numpy())
print(tf.math.argmax(tm, axis=2).dtype, tf.math.argmin(tm, axis=0, output_type=tf.int32).dtype)
print(tf.math.cumsum(tf.constant([1, 2, 3]), exclusive=True).numpy().tolist(), tf.math.cumsum(tf.constant([1, 2, 3]), reverse=True).numpy().tolist())
x = tf.constant([[1.0, 4.0], [9.0, 16.0]])
print(tf.sqrt(x).numpy().tolist(), tf.math.rsqrt(x).numpy().round(4).tolist(), tf.math.log1p(tf.constant(0.0)).numpy())
print(tf.math.reduce_std(tf.constant([1.0, 2.0, 3.0, 4.0])).numpy().round(5), np.std([1.0, 2.0, 3.0, 4.0]).round(5))
print(tf.math.top_k(tf.constant([5, 1, 9, 3]), k=2).values.numpy().tolist(), tf.math.top_k(tf.constant([5, 1, 9, 3]), k=2).indices.numpy().tolist())
print(tf.math.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0])).numpy().tolist())
print(tf.math.is_nan(tf.constant([np.nan, 1.0])).numpy().tolist(), tf.reduce_sum(tf.constant([np.inf, -np.inf])).numpy())
print(tf.math.count_nonzero(tf.constant([0, 3, 0, 5])).numpy(), tf.math.unsorted_segment_sum(tf.constant([1, 2, 3, 4]), tf.constant([0, 2, 0, 1]), 3).numpy().tolist())


@tf.function
def staged(a, b, f):
    return (a // b, a % b, tf.cast(f, tf.int32), tf.round(f), a / b)


f = np.array([-1.7, -0.5, 2.5, 3.5], np.float32)
outs = staged(ta, tb, tf.constant(f))
ref = (a // b, a % b, np.trunc(f).astype(np.int32), np.round(f), a / b)
print([np.array_equal(o.numpy(), r) for o, r in zip(outs, ref)], outs[4].dtype)

# "Introduction to tensors" / dynamic shapes: the TensorShape API (partial
# shapes, merge, concatenate, compatibility), x.shape (static, None where the
# signature leaves it open) vs tf.shape/tf.size/tf.rank (run time), reshape with
# -1 and a tensor dimension, ensure_shape (ValueError at trace time when the
# static shape already conflicts, InvalidArgumentError when the graph runs), set_shape.
import numpy as np
import autograph_cli.tf as tf

s = tf.TensorShape([None, 3, 4])
print(s, s.rank, s[1], s[0], s.as_list(), s.is_fully_defined(), s.num_elements())
print(s.merge_with([2, 3, None]), s.concatenate([5]), s[1:])
print(tf.TensorShape([2, 3]).num_elements(), tf.TensorShape(None).rank, tf.TensorShape(None))
print(s.is_compatible_with([7, 3, 4]), s.is_compatible_with([7, 3]))
print(tf.TensorShape([1, 2]) == tf.TensorShape([1, 2]), tf.TensorShape([None]) == tf.TensorShape([None]), len(s))
try:
    s.merge_with([2, 4, 4])
except ValueError as e:
    print("ValueError")
try:
    tf.TensorShape(None).as_list()
except ValueError as e:
    print("ValueError")

@tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.float32)])
def f(x):
    print("static", x.shape, x.shape.rank, x.shape[0], x.shape[-1])
    dyn = tf.shape(x)
    print("dyn", dyn)
    n = tf.size(x)
    r = tf.rank(x)
    flat = tf.reshape(x, [-1])
    two = tf.reshape(x, [tf.shape(x)[0], -1])
    print("two", two.shape, flat.shape)
    y = tf.ensure_shape(two, [None, None])
    z = tf.reshape(x, [-1, 3])
    z.set_shape([None, 3])
    print("z", z.shape)
    return dyn, n, r, tf.shape(two), tf.reduce_sum(z, axis=0)

for shp in [(2, 2, 3), (1, 5, 3)]:
    out = f(tf.ones(shp))
    print([o.numpy().tolist() for o in out])
print(f.experimental_get_tracing_count())

@tf.function
def g(x):
    return tf.ensure_shape(x, [None, 2])
print(g(tf.ones([3, 2])).shape)
try:
    g(tf.ones([3, 3]))
except Exception as e:
    print(type(e).__name__)

@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def h(x):
    return tf.ensure_shape(x, [3])
try:
    h(tf.ones([4]))
except Exception as e:
    print(type(e).__name__)
print(h(tf.ones([3])).numpy())
x = tf.ones([2, 3])
print(tf.shape(x), tf.size(x), tf.rank(x), x.shape, x.ndim, tf.shape(x, out_type=tf.int64).dtype)
print(x.get_shape(), x.shape.as_list())

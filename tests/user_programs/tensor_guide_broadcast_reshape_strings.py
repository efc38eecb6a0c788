# "Introduction to tensors" cells as the guide runs them: broadcasting
# (scalars, [3,1] x [4]), broadcast_to, casting chains through float16 and
# uint8, shape/rank/size facts, reshape with -1 and the error for an
# impossible shape, slicing an axis, truncating casts, strings.
import numpy as np
import autograph_cli.tf as tf

# "Introduction to tensors": broadcasting, dtypes, casting
x = tf.constant([1, 2, 3])
y = tf.constant(2)
z = tf.constant([2, 2, 2])
print(tf.multiply(x, 2), x * y, x * z)
x = tf.reshape(x, [3, 1])
y = tf.range(1, 5)
print(x, "\n", y, "\n", tf.multiply(x, y))
print(tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3]))
the_f64_tensor = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)
the_f16_tensor = tf.cast(the_f64_tensor, dtype=tf.float16)
the_u8_tensor = tf.cast(the_f16_tensor, dtype=tf.uint8)
print(the_u8_tensor)
rank_4_tensor = tf.zeros([3, 2, 4, 5])
print("Type of every element:", rank_4_tensor.dtype)
print("Number of axes:", rank_4_tensor.ndim)
print("Shape of tensor:", rank_4_tensor.shape)
print("Elements along axis 0 of tensor:", rank_4_tensor.shape[0])
print("Elements along the last axis of tensor:", rank_4_tensor.shape[-1])
print("Total number of elements (3*2*4*5): ", tf.size(rank_4_tensor).numpy())
print(tf.rank(rank_4_tensor), tf.shape(rank_4_tensor))
rank_3_tensor = tf.constant([[[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], [[10, 11, 12, 13, 14], [15, 16, 17, 18, 19]], [[20, 21, 22, 23, 24], [25, 26, 27, 28, 29]]])
print(tf.reshape(rank_3_tensor, [-1]))
print(tf.reshape(rank_3_tensor, [3 * 2, 5]), "\n")
print(tf.reshape(rank_3_tensor, [3, -1]))
try:
    tf.reshape(rank_3_tensor, [7, -1])
except Exception as e:
    print(f"{type(e).__name__}")
print(rank_3_tensor[:, :, 4])
print(tf.constant([1.5, 2.5, -0.5]).numpy().astype(np.int32), tf.cast([1.5, 2.5, -0.5], tf.int32))
print(tf.strings.length(tf.constant("Gray wolf")), tf.strings.unicode_split(tf.constant("Gray wolf"), "UTF-8")[:2])
print(tf.strings.to_number(tf.strings.split(tf.constant("1 10 100"), " ")))
byte_strings = tf.strings.bytes_split(tf.constant("Duck"))
print(byte_strings)

# "Introduction to tensors" / "Customization basics": dtypes, shapes, axes,
# broadcasting, indexing, reshaping, casting, numpy conversion, strings.
import numpy as np
import autograph_cli.tf as tf

rank_0 = tf.constant(4)
rank_1 = tf.constant([2.0, 3.0, 4.0])
rank_2 = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
print(rank_0.dtype.name, rank_1.dtype.name, rank_2.dtype.name, rank_2.shape)
rank_4 = tf.zeros([3, 2, 4, 5])
print(rank_4.dtype, rank_4.ndim, rank_4.shape, tf.rank(rank_4).numpy(), tf.size(rank_4).numpy())
print(rank_4.shape[0], rank_4.shape[-1], rank_4.shape.as_list(), tf.shape(rank_4).numpy().tolist())

a = tf.constant([[1, 2], [3, 4]])
b = tf.ones([2, 2], dtype=tf.int32)
print((a + b).numpy().tolist(), (a * b).numpy().tolist(), (a @ b).numpy().tolist())
c = tf.constant([[4.0, 5.0], [10.0, 1.0]])
print(tf.reduce_max(c).numpy(), tf.math.argmax(c).numpy().tolist(), np.round(tf.nn.softmax(c).numpy(), 4).tolist())
print(tf.convert_to_tensor([1, 2, 3]).dtype, tf.reduce_max([1, 2, 3]).numpy(), tf.reduce_max(np.array([1, 2, 3])).numpy())

# indexing
r1 = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
print(r1[0].numpy(), r1[-1].numpy(), r1[:4].numpy().tolist(), r1[2:-3].numpy().tolist(), r1[::2].numpy().tolist(), r1[::-1].numpy().tolist())
t = tf.reshape(tf.range(24), [2, 3, 4])
tn = np.arange(24).reshape(2, 3, 4)
print(np.array_equal(t[:, :, 3].numpy(), tn[:, :, 3]), np.array_equal(t[1, ..., 1:3].numpy(), tn[1, ..., 1:3]),
      t[:, tf.newaxis, 1].shape, np.array_equal(t[..., ::-2].numpy(), tn[..., ::-2]))

# reshape, transpose
x = tf.constant([[1], [2], [3]])
print(x.shape.as_list(), tf.reshape(x, [1, 3]).shape, tf.reshape(t, [-1]).shape, tf.reshape(t, [2 * 3, 4]).shape,
      tf.reshape(t, [2, -1]).shape, tf.transpose(t, perm=[2, 0, 1]).shape)
try:
    tf.reshape(t, [7, -1])
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError")

# casting and broadcasting
the_f64 = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)
the_f16 = tf.cast(the_f64, dtype=tf.float16)
the_u8 = tf.cast(the_f16, dtype=tf.uint8)
print(the_u8.numpy().tolist(), the_u8.dtype)
x = tf.constant([1, 2, 3])
y = tf.constant(2)
z = tf.constant([2, 2, 2])
print(tf.multiply(x, 2).numpy().tolist(), (x * y).numpy().tolist(), (x * z).numpy().tolist())
x = tf.reshape(x, [3, 1])
y = tf.range(1, 5)
print(tf.multiply(x, y).numpy().tolist())
print(tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3]).numpy().tolist())
print(tf.broadcast_static_shape(tf.TensorShape([3, 1]), tf.TensorShape([1, 4])),
      tf.broadcast_dynamic_shape(tf.constant([3, 1]), tf.constant([1, 4])).numpy().tolist())
try:
    tf.constant([1, 2]) + tf.constant([1.0, 2.0])
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError")

# numpy interop and operator overloading
ndarray = np.ones([3, 3])
tensor = tf.multiply(ndarray, 42)
print(tensor.dtype, np.add(tensor, 1)[0].tolist(), tensor.numpy().sum(), type(np.asarray(tensor)).__name__)
print(tf.math.square(2).numpy(), tf.math.square(5).numpy(), tf.reduce_sum([1, 2, 3]).numpy(), tf.add(1, 2).numpy(),
      tf.square(2) + tf.square(3))

# string tensors
scalar_string_tensor = tf.constant("Gray wolf")
tensor_of_strings = tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])
print(scalar_string_tensor.dtype, tensor_of_strings.shape, tf.constant("🥳👍").numpy())
print(tf.strings.split(scalar_string_tensor, sep=" ").numpy().tolist())
print(tf.strings.split(tensor_of_strings).to_list())
text = tf.constant("1 10 100")
print(tf.strings.to_number(tf.strings.split(text, " ")).numpy().tolist())
byte_strings = tf.strings.bytes_split(tf.constant("Duck"))
byte_ints = tf.io.decode_raw(tf.constant("Duck"), tf.uint8)
print(byte_strings.numpy().tolist(), byte_ints.numpy().tolist())
unicode_bytes = tf.constant("アヒル 🦆")
print(tf.strings.unicode_split(unicode_bytes, input_encoding="UTF-8").numpy().tolist())
print(tf.strings.unicode_decode(unicode_bytes, input_encoding="UTF-8").numpy().tolist() == [ord(c) for c in "アヒル 🦆"])

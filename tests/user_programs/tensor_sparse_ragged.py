# "Introduction to tensors" (ragged and sparse sections) and the "Ragged
# tensors" guide's first steps: building ragged tensors, row lengths and
# splits, elementwise math, reductions over rows, to_tensor padding, a
# ragged batch from a dataset, and sparse tensors to dense and back.
import numpy as np
import autograph_cli.tf as tf

ragged_list = [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]
ragged_tensor = tf.ragged.constant(ragged_list)
print(ragged_tensor.shape, ragged_tensor.to_list() == ragged_list, ragged_tensor.row_lengths().numpy().tolist())
print(ragged_tensor.row_splits.numpy().tolist(), ragged_tensor.values.numpy().tolist(), int(ragged_tensor.nrows()))
print(ragged_tensor.to_tensor().numpy().tolist())
print(ragged_tensor.to_tensor(default_value=-1).numpy().tolist())
print((ragged_tensor * 2 + 1).to_list())
print(tf.reduce_sum(ragged_tensor, axis=1).numpy().tolist(), [sum(r) for r in ragged_list])
print(tf.reduce_mean(tf.cast(ragged_tensor, tf.float32), axis=1).numpy().tolist())
print(tf.reduce_max(ragged_tensor, axis=1).numpy().tolist())
print(ragged_tensor[1].numpy().tolist(), ragged_tensor[-1].numpy().tolist())
rt2 = tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 3])
rt3 = tf.RaggedTensor.from_value_rowids(values=[3, 1, 4, 1, 5, 9, 2], value_rowids=[0, 0, 0, 0, 2, 2, 2], nrows=3)
print(rt2.to_list(), rt3.to_list() == rt2.to_list())
print(tf.ragged.map_flat_values(tf.square, rt2).to_list())
print(tf.concat([rt2, rt2], axis=0).to_list())
words = tf.constant(["What is", "the weather", "tomorrow"])
tokens = tf.strings.split(words)
print(tokens.to_list(), tokens.row_lengths().numpy().tolist())
print(tf.strings.length(tokens.values).numpy().tolist())


@tf.function
def row_sums(rt):
    out = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    i = 0
    for row in rt:
        out = out.write(i, tf.reduce_sum(row))
        i += 1
    return out.stack()


print(row_sums(tf.ragged.constant([[1, 2], [], [3, 4, 5]])).numpy().tolist())

print(tf.RaggedTensor.from_tensor(tf.constant([[1, 2, 0], [3, 0, 0], [4, 5, 6]]), padding=0).to_list())
print(tf.concat([tf.ragged.constant([[1], [2, 3]]), tf.ragged.constant([[4, 5], []])], axis=1).to_list())

# sparse tensors
sparse_tensor = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
print(sparse_tensor.shape, sparse_tensor.dtype)
print(tf.sparse.to_dense(sparse_tensor).numpy().tolist())
st2 = tf.sparse.from_dense(tf.constant([[0, 3], [4, 0]]))
print(st2.indices.numpy().tolist(), st2.values.numpy().tolist(), st2.dense_shape.numpy().tolist())
st_a = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])
st_b = tf.sparse.SparseTensor(indices=[[0, 2], [3, 0]], values=[56, 38], dense_shape=[4, 10])
st_sum = tf.sparse.add(st_a, st_b)
dense_sum = tf.sparse.to_dense(st_a).numpy() + tf.sparse.to_dense(st_b).numpy()
print(np.array_equal(tf.sparse.to_dense(st_sum).numpy(), dense_sum))
st_c = tf.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]), values=[13, 15, 17], dense_shape=(2, 2))
mb = tf.constant([[4], [6]])
product = tf.sparse.sparse_dense_matmul(st_c, mb)
print(product.numpy().tolist(), (np.array([[0, 13], [15, 17]]) @ np.array([[4], [6]])).tolist())
print(tf.sparse.reduce_sum(st_c).numpy(), tf.sparse.reduce_sum(st_c, axis=1).numpy().tolist())

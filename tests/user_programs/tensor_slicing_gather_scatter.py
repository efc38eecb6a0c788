# "Introduction to tensor slicing": tf.slice, strided indexing, tf.gather,
# tf.gather_nd, tf.scatter_nd, tf.tensor_scatter_nd_* and tf.where, both
# eagerly and inside a tf.function, checked against numpy.
import numpy as np
import autograph_cli.tf as tf

t1 = tf.constant([0, 1, 2, 3, 4, 5, 6, 7])
print(tf.slice(t1, begin=[1], size=[3]).numpy().tolist(), t1[1:4].numpy().tolist(), t1[-3:].numpy().tolist())
t2 = tf.constant([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14], [15, 16, 17, 18, 19]])
print(t2[:-1, 1:3].numpy().tolist())
t3 = tf.constant([[[1, 3, 5, 7], [9, 11, 13, 15]], [[17, 19, 21, 23], [25, 27, 29, 31]]])
print(tf.slice(t3, begin=[1, 1, 0], size=[1, 1, 2]).numpy().tolist())
print(tf.strided_slice(t3, [0, 0, 1], [2, 2, 4], [1, 1, 2]).numpy().tolist())
print(tf.gather(t1, indices=[0, 3, 6]).numpy().tolist())
alphabet = tf.constant(list("abcdefghijklmnopqrstuvwxyz"))
print(tf.gather(alphabet, indices=[2, 0, 19, 18]).numpy().tolist())
t4 = tf.constant([[0, 5], [1, 6], [2, 7], [3, 8], [4, 9]])
print(tf.gather_nd(t4, indices=[[2], [3], [0]]).numpy().tolist())
t5 = np.reshape(np.arange(18), [2, 3, 3])
print(tf.gather_nd(t5, indices=[[0, 0, 0], [1, 2, 1]]).numpy().tolist())
print(tf.gather_nd(t5, indices=[[[0, 0], [0, 2]], [[1, 0], [1, 2]]]).numpy().tolist())
print(tf.gather_nd(t5, indices=[[0, 0], [0, 2], [1, 0], [1, 2]]).numpy().tolist())
t6 = tf.constant([10])
indices = tf.constant([[1], [3], [5], [7], [9]])
data = tf.constant([2, 4, 6, 8, 10])
print(tf.scatter_nd(indices=indices, updates=data, shape=t6).numpy().tolist())
new_indices = tf.constant([[0, 2], [2, 1], [3, 3]])
t8 = tf.constant([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
print(tf.tensor_scatter_nd_update(t8, new_indices, [5, 10, 15]).numpy().tolist())
t10 = tf.constant([[9, 7, 5], [1, 6, 3]])
print(tf.tensor_scatter_nd_add(t10, indices=[[0, 2], [1, 1]], updates=[100, 200]).numpy().tolist())
print(tf.tensor_scatter_nd_max(t10, indices=[[0, 2]], updates=[6]).numpy().tolist(),
      tf.tensor_scatter_nd_min(t10, indices=[[0, 2]], updates=[1]).numpy().tolist())
t11 = tf.constant([[2, 7, 0], [9, 0, 1], [0, 3, 8]])
t12 = tf.tensor_scatter_nd_update(t11, indices=[[0, 2], [1, 1], [2, 0]], updates=[6, 5, 4])
print(t12.numpy().tolist())
print(tf.where(t11 == 0).numpy().tolist(), tf.where(t11 > 2, t11, -t11).numpy().tolist())

# gather along an axis with batch_dims, and a staged version of the same
params = np.arange(24).reshape(2, 3, 4)
idx = np.array([[2, 0], [1, 1]])
g = tf.gather(params, idx, axis=2, batch_dims=1)
ref = np.stack([params[b][:, idx[b]] for b in range(2)])
print(g.shape, np.array_equal(g.numpy(), ref))

@tf.function
def sparse_update(x, idx, upd):
    x = tf.tensor_scatter_nd_sub(x, idx, upd)
    rows = tf.gather(x, tf.argsort(tf.reduce_sum(x, axis=1)))
    sl = tf.slice(rows, [0, 1], [-1, 2])
    return rows, sl, tf.gather_nd(x, tf.where(x > 3))

xn = np.array([[5, 1, 4], [2, 8, 0], [7, 7, 7]], np.int32)
rows, sl, big = sparse_update(tf.constant(xn), tf.constant([[2, 0], [0, 0]]), tf.constant([6, 5]))
yn = xn.copy(); yn[2, 0] -= 6; yn[0, 0] -= 5
rn = yn[np.argsort(yn.sum(1), kind="stable")]
print(np.array_equal(rows.numpy(), rn), np.array_equal(sl.numpy(), rn[:, 1:3]), np.array_equal(big.numpy(), yn[yn > 3]))

# "Working with sparse tensors" guide: constructing SparseTensors, printing
# their pieces, from_dense / to_dense, tf.sparse.add, sparse_dense_matmul,
# concat, slice, reorder, map_values, reduce_max/sum, retain, the
# elementwise ops on values, SparseTensors through tf.function (a
# SparseTensorSpec signature), and a sparse linear model trained with the
# tape inside tf.function.
import numpy as np
import autograph_cli.tf as tf

st1 = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[10, 20], dense_shape=[3, 10])
print(st1)


def pprint_sparse_tensor(st):
    s = "<SparseTensor shape=%s \n values={" % (st.dense_shape.numpy().tolist(),)
    for (index, value) in zip(st.indices, st.values):
        s += f"\n  %s: %s" % (index.numpy().tolist(), value.numpy().tolist())
    return s + "}>"


print(pprint_sparse_tensor(st1))
st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
print(pprint_sparse_tensor(st2))
st3 = tf.sparse.to_dense(st2)
print(st3)

st_a = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])
st_b = tf.sparse.SparseTensor(indices=[[0, 2], [3, 0]], values=[56, 38], dense_shape=[4, 10])
st_sum = tf.sparse.add(st_a, st_b)
print(pprint_sparse_tensor(st_sum))

st_c = tf.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]), values=[13, 15, 17], dense_shape=(2, 2))
mb = tf.constant([[4], [6]])
product = tf.sparse.sparse_dense_matmul(st_c, mb)
print(product)

sparse_pattern_A = tf.sparse.SparseTensor(indices=[[2, 4], [3, 3], [3, 4], [4, 3], [4, 4], [5, 4]],
                                          values=[1, 1, 1, 1, 1, 1], dense_shape=[8, 5])
sparse_pattern_B = tf.sparse.SparseTensor(indices=[[0, 2], [1, 1], [1, 3], [2, 0], [2, 4], [2, 5], [3, 5],
                                                   [4, 5], [5, 0], [5, 4], [5, 5], [6, 1], [6, 3], [7, 2]],
                                          values=[1] * 14, dense_shape=[8, 6])
sparse_pattern_C = tf.sparse.SparseTensor(indices=[[3, 0], [4, 0]], values=[1, 1], dense_shape=[8, 6])
sparse_patterns_list = [sparse_pattern_A, sparse_pattern_B, sparse_pattern_C]
sparse_pattern = tf.sparse.concat(axis=1, sp_inputs=sparse_patterns_list)
print(tf.sparse.to_dense(sparse_pattern))

sparse_slice_A = tf.sparse.slice(sparse_pattern_A, start=[0, 0], size=[8, 5])
sparse_slice_B = tf.sparse.slice(sparse_pattern_B, start=[0, 5], size=[8, 6])
sparse_slice_C = tf.sparse.slice(sparse_pattern_C, start=[0, 10], size=[8, 6])
print(tf.sparse.to_dense(sparse_slice_A).shape, tf.sparse.to_dense(sparse_slice_B))
print(sparse_slice_C.dense_shape.numpy().tolist(), sparse_slice_C.values.numpy().tolist())

st2_plus_5 = tf.sparse.map_values(tf.add, st2, 5)
print(tf.sparse.to_dense(st2_plus_5))
st2_plus_5 = tf.sparse.SparseTensor(st2.indices, st2.values + 5, st2.dense_shape)
print(tf.sparse.to_dense(st2_plus_5))

unordered = tf.sparse.SparseTensor(indices=[[2, 1], [0, 3], [0, 1]], values=[3., 1., 2.], dense_shape=[3, 4])
print(tf.sparse.reorder(unordered).indices.numpy().tolist())
print(tf.sparse.reduce_max(st_c, axis=1), tf.sparse.reduce_sum(st1))
kept = tf.sparse.retain(st2, tf.constant([True, False, True]))
print(kept.values.numpy().tolist(), kept.indices.numpy().tolist())
print(tf.sparse.to_dense(tf.abs(tf.sparse.SparseTensor([[0, 0], [1, 1]], [-2.0, 3.0], [2, 2]))))


@tf.function(input_signature=[tf.SparseTensorSpec(shape=[None, 4], dtype=tf.float32)])
def row_sums(st):
    return tf.sparse.reduce_sum(st, axis=1), tf.sparse.to_dense(st * 2.0)


sums, doubled = row_sums(tf.sparse.from_dense(tf.constant([[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0],
                                                           [0.0, 3.0, 0.0, 0.0]])))
print(sums, doubled.numpy().tolist())
print(row_sums(tf.sparse.from_dense(tf.constant([[0.0, 0.0, 4.0, 0.0]])))[0])
print("traces:", row_sums.experimental_get_tracing_count())

# sparse features, dense weights, the tape inside tf.function
features = tf.sparse.SparseTensor(indices=[[0, 0], [0, 3], [1, 1], [2, 2], [2, 3]],
                                  values=[1.0, 2.0, 1.0, 3.0, 1.0], dense_shape=[3, 4])
labels = tf.constant([[1.0], [0.0], [2.0]])
w = tf.Variable(tf.zeros([4, 1]))


@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        pred = tf.sparse.sparse_dense_matmul(x, w)
        loss = tf.reduce_mean(tf.square(pred - y))
    g = tape.gradient(loss, w)
    w.assign_sub(0.1 * g)
    return loss


losses = [float(step(features, labels)) for _ in range(4)]
X = tf.sparse.to_dense(features).numpy().astype(np.float64)
W, ref = np.zeros((4, 1)), []
for _ in range(4):
    r = X @ W - labels.numpy()
    ref.append(np.mean(r ** 2))
    W -= 0.1 * 2 * X.T @ r / 3
print("sparse model matches numpy:", np.allclose(losses, ref, rtol=1e-6), np.allclose(w.numpy(), W, atol=1e-6))

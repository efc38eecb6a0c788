# "Advanced automatic differentiation" and light ragged/sparse use inside
# tf.function: a custom gradient whose function reads a variable (grad_fn
# taking `variables`, and the TypeError when it does not), gradients through
# tf.map_fn/tf.scan/tf.foldl, ragged reductions/row lengths/to_tensor and
# string splits, SparseTensor to_dense/matmul/reduce_sum/add.
import numpy as np
import autograph_cli.tf as tf

# custom_gradient with a variable: grad_fn returns (input grads, variable grads)
w = tf.Variable(2.0)

@tf.custom_gradient
def scaled(x):
    y = w * x
    def grad_fn(dy, variables=None):
        return dy * w, [dy * x * 10.0]
    return y, grad_fn

@tf.function
def step(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = scaled(x)
    return t.gradient(y, [x, w])
gx, gw = step(tf.constant(3.0))
print(float(gx), float(gw))

# gradients through map_fn, scan and foldl inside tf.function
v = tf.Variable([1.0, 2.0, 3.0])

@tf.function
def functional():
    with tf.GradientTape(persistent=True) as t:
        sq = tf.map_fn(lambda e: e * e * v[0], v)
        cums = tf.scan(lambda a, e: a * e, v)
        total = tf.foldl(lambda a, e: a + e ** 3, v, initializer=0.0)
        s1, s2 = tf.reduce_sum(sq), tf.reduce_sum(cums)
    return s1, s2, total, t.gradient(s1, v), t.gradient(s2, v), t.gradient(total, v)
s1, s2, total, g1, g2, g3 = functional()
print(float(s1), float(s2), float(total))
print(g1.numpy().tolist(), g2.numpy().tolist(), g3.numpy().tolist())

# ragged: light use inside tf.function
rt = tf.ragged.constant([[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]])
@tf.function
def ragged_stats(r):
    return tf.reduce_sum(r, axis=1), r.row_lengths(), r.to_tensor(default_value=-1.0), tf.reduce_mean(r.flat_values)
s, lens, dense, mean = ragged_stats(rt)
print(s.numpy().tolist(), lens.numpy().tolist(), dense.numpy().tolist(), float(mean))
print(rt.shape, rt.bounding_shape().numpy().tolist(), rt[2].numpy().tolist(), rt[:, :1].to_list())
print(tf.ragged.constant([["a", "b"], ["c"]]).to_list(), (rt * 2).to_list())
words = tf.constant(["what a day", "hi"])
print(tf.strings.split(words).to_list(), tf.strings.split(words).row_lengths().numpy().tolist())

# sparse: light use
st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])
print(st)
print(tf.sparse.to_dense(st).numpy().tolist())
@tf.function
def sp(st, m):
    return tf.sparse.sparse_dense_matmul(st, m), tf.sparse.reduce_sum(st, axis=1)
mm, rs = sp(st, tf.ones([4, 2]))
print(mm.numpy().tolist(), rs.numpy().tolist())
print(tf.sparse.add(st, st).values.numpy().tolist())

# a custom gradient whose function reads a trainable variable must take `variables`
@tf.custom_gradient
def forgot(x):
    return w * x, lambda dy: dy * w


try:
    with tf.GradientTape() as t:
        forgot(tf.constant(1.0))
except TypeError as e:
    print("TypeError", "'variables'" in str(e))

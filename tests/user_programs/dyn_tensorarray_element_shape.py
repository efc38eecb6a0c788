# TensorArray with dynamic_size and element_shape: rows of a matrix written in
# a data-dependent loop, then stacked, gathered, concatenated and read back.
import numpy as np
import autograph_cli.tf as tf

@tf.function
def prefix_rows(x, thresh):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=tf.TensorShape([3]))
    acc = tf.zeros([3])
    i = 0
    for row in x:
        acc += row
        if tf.reduce_sum(acc) > thresh:
            break
        ta = ta.write(i, acc)
        i += 1
    stacked = ta.stack()
    return stacked, ta.gather([0]), ta.concat(), ta.size()

x = np.arange(15, dtype=np.float32).reshape(5, 3)
st, g, c, n = prefix_rows(tf.constant(x), tf.constant(40.0))
cums = np.cumsum(x, axis=0)
keep = []
for r in cums:
    if r.sum() > 40:
        break
    keep.append(r)
keep = np.array(keep)
print(int(n), st.shape, np.array_equal(st.numpy(), keep))
print(g.shape, np.array_equal(g.numpy(), keep[:1]), c.shape, np.array_equal(c.numpy(), keep.reshape(-1)))
st2, g2, _, n2 = prefix_rows(tf.constant(x), tf.constant(5.0))
print(int(n2), st2.shape, np.array_equal(g2.numpy(), cums[:1]))

@tf.function
def none_kept(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=tf.TensorShape([3]))
    for row in x:
        if tf.reduce_sum(row) < 0:
            ta = ta.write(ta.size(), row)
    return ta.stack()

print(none_kept(tf.constant(x)).shape)

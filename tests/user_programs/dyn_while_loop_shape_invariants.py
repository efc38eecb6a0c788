# tf.while_loop with shape_invariants: a tensor that grows each iteration
# (Fibonacci numbers, then a matrix gaining rows).
import numpy as np
import autograph_cli.tf as tf

@tf.function
def fib_upto(limit):
    seq = tf.constant([0, 1])
    def cond(s):
        return s[-1] + s[-2] <= limit
    def body(s):
        return (tf.concat([s, [s[-1] + s[-2]]], 0),)
    (seq,) = tf.while_loop(cond, body, (seq,), shape_invariants=(tf.TensorShape([None]),))
    return seq

def fib_py(limit):
    s = [0, 1]
    while s[-1] + s[-2] <= limit:
        s.append(s[-1] + s[-2])
    return s

for lim in (1, 10, 100):
    print(lim, fib_upto(tf.constant(lim)).numpy().tolist() == fib_py(lim))

@tf.function
def grow_rows(n):
    i = tf.constant(0)
    m = tf.zeros([0, 3])
    i, m = tf.while_loop(
        lambda i, m: i < n,
        lambda i, m: (i + 1, tf.concat([m, tf.fill([1, 3], tf.cast(i, tf.float32))], axis=0)),
        [i, m],
        shape_invariants=[i.shape, tf.TensorShape([None, 3])])
    return m

m = grow_rows(tf.constant(4)).numpy()
print(m.shape, np.array_equal(m, np.repeat(np.arange(4, dtype=np.float32)[:, None], 3, axis=1)))
print(grow_rows(tf.constant(0)).numpy().shape)

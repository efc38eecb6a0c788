# The AutoGraph reference on loops and lists: a Python list appended to in a
# staged loop (stacked with tf.stack / tf.autograph.stack), len() of a
# tensor, range() with tensor bounds, rows indexed by a tf.range counter,
# maximum_iterations through set_loop_options, nested staged loops with
# break, and a while loop whose condition is a Python-and-tensor mix.
import numpy as np
import autograph_cli.tf as tf


@tf.function
def squares(n):
    out = []
    for i in tf.range(n):
        out.append(i * i)
    return tf.stack(out)


print(squares(tf.constant(5)).numpy().tolist())


@tf.function
def length_and_range(x):
    total = tf.constant(0)
    for i in range(len(x)):
        total += x[i] * i
    return len(x), total


n, tot = length_and_range(tf.constant([3, 1, 4, 1, 5]))
print(int(n), int(tot), sum(v * i for i, v in enumerate([3, 1, 4, 1, 5])))


@tf.function
def range_tensor_bounds(lo, hi):
    s = 0
    for i in range(lo, hi, 2):
        s += i
    return s


print(int(range_tensor_bounds(tf.constant(3), tf.constant(12))), sum(range(3, 12, 2)))


@tf.function
def weighted_rows(m, w):
    acc = tf.zeros([tf.shape(m)[1]])
    for i in tf.range(tf.shape(m)[0]):
        acc += m[i] * w[i] * tf.cast(i + 1, tf.float32)
    return acc


mm = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
ww = np.array([0.5, 1.0, 2.0], np.float32)
print(weighted_rows(tf.constant(mm), tf.constant(ww)).numpy().tolist(),
      (mm * (ww * np.arange(1, 4))[:, None]).sum(0).tolist())


@tf.function
def capped(n):
    i = tf.constant(0)
    while i < n:
        tf.autograph.experimental.set_loop_options(maximum_iterations=7)
        i += 1
    return i


print(int(capped(tf.constant(3))), int(capped(tf.constant(100))))


@tf.function
def first_pair_summing_to(x, target):
    found = tf.constant([-1, -1])
    for i in tf.range(tf.size(x)):
        done = False
        for j in tf.range(i + 1, tf.size(x)):
            if x[i] + x[j] == target:
                found = tf.stack([i, j])
                done = True
                break
        if done:
            break
    return found


def py_pair(x, target):
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            if x[i] + x[j] == target:
                return [i, j]
    return [-1, -1]


xs = [8, 3, 5, 7, 1, 9]
print([first_pair_summing_to(tf.constant(xs), tf.constant(t)).numpy().tolist() for t in (10, 16, 100)],
      [py_pair(xs, t) for t in (10, 16, 100)])


@tf.function
def mixed_condition(x, limit):
    steps = 0
    while steps < 10 and x < limit:
        x = x * 2
        steps += 1
    return x, steps


for limit in (5.0, 1e6):
    x, steps = mixed_condition(tf.constant(1.0), tf.constant(limit))
    px, ps = 1.0, 0
    while ps < 10 and px < limit:
        px, ps = px * 2, ps + 1
    print(float(x), int(steps), px, ps)


@tf.function
def accumulate_pairs(n):
    firsts, seconds = [], []
    for i in tf.range(n):
        firsts.append(i)
        seconds.append(tf.cast(i, tf.float32) / 2)
    return tf.autograph.stack(firsts), tf.stack(seconds)


f1, f2 = accumulate_pairs(tf.constant(4))
print(f1.numpy().tolist(), f2.numpy().tolist())

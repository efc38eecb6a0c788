# "Random number generation": tf.random.Generator (from_seed, normal,
# uniform, split, reset, in tf.function), stateless ops with explicit seeds,
# tf.random.set_seed repeatability. Exact bits differ between libraries, so
# the checks are the guide's properties: same seed same numbers, state
# advances, shapes/dtypes/ranges, sample moments.
import numpy as np
import autograph_cli.tf as tf

g1 = tf.random.Generator.from_seed(1)
a = g1.normal(shape=[2, 3])
g2 = tf.random.Generator.from_seed(1)
b = g2.normal(shape=[2, 3])
print(a.shape, a.dtype, np.array_equal(a.numpy(), b.numpy()), np.array_equal(g1.normal([2, 3]).numpy(), a.numpy()))

g = tf.random.get_global_generator()
print(g.normal(shape=[2, 3]).shape)

g = tf.random.Generator.from_seed(7)
u = g.uniform(shape=[10000], minval=2.0, maxval=5.0)
un = u.numpy()
print(u.dtype, bool(un.min() >= 2.0), bool(un.max() < 5.0), abs(un.mean() - 3.5) < 0.05)
ints = g.uniform(shape=[1000], minval=0, maxval=10, dtype=tf.int64).numpy()
print(ints.dtype, set(ints.tolist()) == set(range(10)))
nrm = g.normal(shape=[20000], mean=1.0, stddev=2.0).numpy()
print(abs(nrm.mean() - 1.0) < 0.06, abs(nrm.std() - 2.0) < 0.06)
tn = g.truncated_normal(shape=[5000]).numpy()
print(bool(np.abs(tn).max() <= 2.0))

# split: independent generators, repeatable from the parent's seed
def children(seed):
    parent = tf.random.Generator.from_seed(seed)
    return [c.normal([3]).numpy() for c in parent.split(3)]

c1, c2 = children(5), children(5)
print(all(np.array_equal(x, y) for x, y in zip(c1, c2)), not np.array_equal(c1[0], c1[1]))

# reset_from_seed restarts the sequence
g = tf.random.Generator.from_seed(3)
first = g.normal([4]).numpy()
g.normal([4])
g.reset_from_seed(3)
print(np.array_equal(first, g.normal([4]).numpy()))

# a generator used inside tf.function advances its state on every call
g = tf.random.Generator.from_seed(11)

@tf.function
def draw():
    return g.normal([3])

d1, d2 = draw().numpy(), draw().numpy()
print(not np.array_equal(d1, d2), draw.experimental_get_tracing_count())

gg = tf.random.Generator.from_seed(11)
print(np.array_equal(d1, gg.normal([3]).numpy()))

# stateless: same (shape, seed) same numbers, eager or traced
s1 = tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])
s2 = tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])
s3 = tf.random.stateless_normal(shape=[2, 3], seed=[1, 3])
print(np.array_equal(s1.numpy(), s2.numpy()), not np.array_equal(s1.numpy(), s3.numpy()))

@tf.function
def stateless_in_graph(seed):
    return tf.random.stateless_uniform([2, 3], seed=seed, minval=0, maxval=100, dtype=tf.int32)

r1 = stateless_in_graph(tf.constant([4, 5]))
r2 = tf.random.stateless_uniform([2, 3], seed=[4, 5], minval=0, maxval=100, dtype=tf.int32)
print(r1.dtype, np.array_equal(r1.numpy(), r2.numpy()))

# new seeds from a generator's make_seeds for stateless ops
g = tf.random.Generator.from_seed(2)
seeds = g.make_seeds(2)
print(seeds.shape, seeds.dtype)
x = tf.random.stateless_normal([3], seed=seeds[:, 0])
y = tf.random.stateless_normal([3], seed=seeds[:, 1])
print(not np.array_equal(x.numpy(), y.numpy()))
new_seeds = tf.random.experimental.stateless_split([1, 2], num=3)
print(new_seeds.shape, new_seeds.dtype)

# global seed: the same program order gives the same numbers
tf.random.set_seed(1234)
p1 = tf.random.uniform([2]).numpy(), tf.random.uniform([2]).numpy()
tf.random.set_seed(1234)
p2 = tf.random.uniform([2]).numpy(), tf.random.uniform([2]).numpy()
print(np.array_equal(p1[0], p2[0]) and np.array_equal(p1[1], p2[1]), not np.array_equal(p1[0], p1[1]))

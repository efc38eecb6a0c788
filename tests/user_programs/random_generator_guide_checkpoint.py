# "Random number generation": tf.random.Generator (from_seed, the global
# generator, split, make_seeds, reset, in tf.function and as an argument,
# created on a Module's first call), saving generators in checkpoints and
# SavedModels, stateless ops (uniform, categorical, split, fold_in), set_seed.
# Exact bits differ between libraries, so repeatability and ranges are checked.
import os
import tempfile

import numpy as np
import autograph_cli.tf as tf

# tf.random.Generator: same seed, same numbers
g1 = tf.random.Generator.from_seed(1)
a = g1.normal(shape=[2, 3])
g2 = tf.random.Generator.from_seed(1)
print(np.array_equal(a.numpy(), g2.normal(shape=[2, 3]).numpy()), a.shape, a.dtype)
print(tf.random.get_global_generator().normal([2]).shape)
tf.random.set_global_generator(tf.random.Generator.from_seed(5))
x1 = tf.random.get_global_generator().uniform([3], minval=0, maxval=10, dtype=tf.int32)
tf.random.set_global_generator(tf.random.Generator.from_seed(5))
x2 = tf.random.get_global_generator().uniform([3], minval=0, maxval=10, dtype=tf.int32)
print(np.array_equal(x1, x2), x1.dtype, bool(tf.reduce_all((x1 >= 0) & (x1 < 10))))
print(tf.random.Generator.from_non_deterministic_state().normal([]).shape)
g = tf.random.Generator.from_seed(1, alg=tf.random.Algorithm.PHILOX)
print(g.state.dtype, isinstance(g.state, tf.Variable))

# independent streams: split advances the parent, children differ from it
g = tf.random.Generator.from_seed(1)
before = g.normal([])
new_gs = g.split(3)
draws = [float(n.normal([])) for n in new_gs]
print(len(new_gs), len(set(draws)), float(g.normal([])) not in draws)
seeds = g.make_seeds(count=2)
print(seeds.shape, seeds.dtype)
r = tf.random.stateless_normal([2], seed=seeds[:, 0])
print(np.array_equal(r, tf.random.stateless_normal([2], seed=seeds[:, 0])), np.array_equal(r, tf.random.stateless_normal([2], seed=seeds[:, 1])))

# in tf.function: the state is a variable, so each call draws new numbers
g = tf.random.Generator.from_seed(1)


@tf.function
def foo():
    return g.normal([])


v1, v2 = foo(), foo()
print(float(v1) != float(v2), foo.experimental_get_tracing_count())


@tf.function
def bar(g):
    return g.normal([])


bar(tf.random.Generator.from_seed(1))
bar(tf.random.Generator.from_seed(2))
print(bar.experimental_get_tracing_count())


class M(tf.Module):
    def __init__(self):
        self.rng = None

    @tf.function
    def __call__(self):
        if self.rng is None:
            self.rng = tf.random.Generator.from_seed(0)
        return self.rng.normal([])


m = M()
print(m().shape, float(m()) != float(m()))

# reset / reset_from_seed / skip replay the sequence
gg = tf.random.Generator.from_seed(7)
s1 = gg.normal([4])
gg.reset_from_seed(7)
print(np.array_equal(s1, gg.normal([4])))
st = gg.state.numpy()
s3 = gg.normal([4])
gg.reset(st)
print(np.array_equal(s3, gg.normal([4])))
print(bool(tf.reduce_all(tf.abs(gg.truncated_normal([1000])) <= 2.0)))
ui = gg.uniform_full_int([3], dtype=tf.int64)
print(ui.dtype, ui.shape)

# saving generators: a checkpoint holds the state
g = tf.random.Generator.from_seed(1)
cp = tf.train.Checkpoint(generator=g)
g.normal([])
d = tempfile.mkdtemp()
path = cp.write(os.path.join(d, "cp"))
after_save = g.normal([])
g.normal([])
cp.restore(path)
print(float(after_save) == float(g.normal([])))


class Gen(tf.Module):
    def __init__(self):
        self.g = tf.random.Generator.from_seed(0)

    @tf.function
    def gen(self):
        return self.g.normal([])


mod = Gen()
mod.gen()
cp2 = tf.train.Checkpoint(m=mod)
p2 = cp2.save(os.path.join(d, "m"))
x = mod.gen()
cp2.restore(p2)
print(float(x) == float(mod.gen()))
tf.saved_model.save(mod, os.path.join(d, "sm"))
imported = tf.saved_model.load(os.path.join(d, "sm"))
print(imported.gen().shape, float(imported.gen()) != float(imported.gen()))

# stateless ops: a function of the seed
print(np.array_equal(tf.random.stateless_uniform([3], seed=[1, 2]), tf.random.stateless_uniform([3], seed=[1, 2])))
iu = tf.random.stateless_uniform([1000], seed=[1, 2], minval=0, maxval=5, dtype=tf.int32)
print(iu.dtype, sorted(set(iu.numpy().tolist())))
logits = tf.math.log([[0.2, 0.3, 0.5], [0.9, 0.1, 0.0]])
c = tf.random.stateless_categorical(logits, 20000, seed=[7, 17])
print(c.shape, c.dtype, np.array_equal(c, tf.random.stateless_categorical(logits, 20000, seed=[7, 17])))
print([np.round(np.bincount(row, minlength=3) / 20000, 1).tolist() for row in c.numpy()])
ss = tf.random.experimental.stateless_split([1, 2], num=3)
print(ss.shape, len({tuple(r) for r in ss.numpy().tolist()}))
f1 = tf.random.experimental.stateless_fold_in([1, 2], 5)
print(f1.shape, np.array_equal(f1, tf.random.experimental.stateless_fold_in([1, 2], 5)))
tf.random.set_seed(42)
u1, u2 = tf.random.uniform([2]), tf.random.uniform([2])
tf.random.set_seed(42)
print(np.array_equal(u1, tf.random.uniform([2])), np.array_equal(u2, tf.random.uniform([2])), np.array_equal(u1, u2))

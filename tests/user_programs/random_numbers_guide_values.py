# "Random number generation" guide, values as TensorFlow prints them:
# Generator.from_seed (TensorFlow's Philox stream and state layout),
# reset_from_seed, split into independent streams, generators created
# inside / passed to tf.function (retracing per generator), make_seeds for
# stateless ops, stateless_normal / uniform / split / fold_in, a Generator in
# a checkpoint, and a dropout-like mask drawn per step in a training loop.
import os
import tempfile

import numpy as np
import autograph_cli.tf as tf


def show(t, digits=5):
    return np.round(np.asarray(t.numpy() if hasattr(t, "numpy") else t, np.float64), digits).tolist()


g1 = tf.random.Generator.from_seed(1)
print(show(g1.normal(shape=[2, 3])))
g = tf.random.Generator.from_seed(1234)
print(g.state.numpy().tolist(), g.state.dtype.name)
print(show(g.normal(shape=(2, 3))))
print(g.state.numpy().tolist())
print(show(tf.random.Generator.from_seed(123, alg="philox").normal(shape=(2, 3))))

g = tf.random.Generator.from_seed(1)
print(show(g.normal([])), show(g.normal([])))
g.reset_from_seed(1)
print(show(g.normal([])))

g = tf.random.Generator.from_seed(1)
print(show(g.normal([])))
new_gs = g.split(3)
for new_g in new_gs:
    print(show(new_g.normal([])), new_g.state.numpy()[:2].tolist())
print(show(g.normal([])))

g = None


@tf.function
def foo():
    global g
    if g is None:
        g = tf.random.Generator.from_seed(1)
    return g.normal([])


print(show(foo()), show(foo()))

num_traces = 0


@tf.function
def bar(gen):
    global num_traces
    num_traces += 1
    return gen.normal([])


bar(tf.random.Generator.from_seed(1))
bar(tf.random.Generator.from_seed(2))
print("traces for two generators:", num_traces)

print(show(tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])))
print(show(tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])))
ints = tf.random.stateless_uniform([4], seed=(2, 3), minval=None, maxval=None, dtype=tf.int32)
print(ints.dtype.name, ints.shape)
u = tf.random.stateless_uniform([1000], seed=[5, 6], minval=2.0, maxval=4.0)
print(bool(tf.reduce_min(u) >= 2.0), bool(tf.reduce_max(u) < 4.0))
new_seeds = tf.random.experimental.stateless_split([1, 2], num=3)
print(new_seeds.shape, new_seeds.dtype.name)
folded = tf.random.experimental.stateless_fold_in([1, 2], 7)
print(folded.numpy()[1], folded.dtype.name)

# make_seeds: a fresh stateless seed per call of a traced function
gen = tf.random.Generator.from_seed(3)


@tf.function
def noisy(x):
    seed = gen.make_seeds(1)[:, 0]
    return x + tf.random.stateless_normal(tf.shape(x), seed=seed)


a, b = noisy(tf.zeros([3])), noisy(tf.zeros([3]))
print("make_seeds draws differ per call:", not np.allclose(a, b), gen.state.numpy().tolist())

# checkpointing a generator restores its stream
ckpt_dir = tempfile.mkdtemp()
gen = tf.random.Generator.from_seed(5)
gen.normal([4])
ckpt = tf.train.Checkpoint(generator=gen)
path = ckpt.write(os.path.join(ckpt_dir, "rng"))
after_save = gen.normal([3])
gen.normal([10])
ckpt.restore(path)
print("restored stream repeats:", np.array_equal(gen.normal([3]).numpy(), after_save.numpy()))
print([k for k, _ in tf.train.list_variables(path) if k.startswith("generator")])

# a training loop drawing a fresh dropout-like mask at every step inside tf.function
rng = tf.random.Generator.from_seed(42)
w = tf.Variable([1.0, -1.0, 0.5, 2.0])


@tf.function
def step(x):
    mask = tf.cast(rng.uniform(tf.shape(x)) > 0.5, tf.float32)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(w * x * mask))
    grad = tape.gradient(loss, w)
    w.assign_sub(0.1 * grad)
    return mask


masks = [step(tf.ones([4])).numpy() for _ in range(3)]
ref = tf.random.Generator.from_seed(42)
expected = [(ref.uniform([4]).numpy() > 0.5).astype(np.float32) for _ in range(3)]
W = np.array([1.0, -1.0, 0.5, 2.0])
for m in expected:
    W = W - 0.1 * 2 * W * m
print("masks follow the generator's stream:", all(np.array_equal(a, b) for a, b in zip(masks, expected)),
      np.allclose(w.numpy(), W), step.experimental_get_tracing_count())

# "tf.data: Build TensorFlow input pipelines": from_tensor_slices with
# dicts and tuples, element_spec, batch/unbatch, zip/concatenate,
# take/skip/enumerate, shuffle with a seed, window/flat_map, scan,
# group_by_window, reduce, take_while, cardinality, and iterating a dataset
# inside tf.function; values checked against plain Python.
import numpy as np
import autograph_cli.tf as tf

dataset = tf.data.Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
print([int(e) for e in dataset], int(dataset.reduce(0, lambda state, value: state + value)))
features = {"a": np.arange(6, dtype=np.float32), "b": np.arange(6).reshape(6, 1) * 10}
ds = tf.data.Dataset.from_tensor_slices((features, np.arange(6) % 2))
print(ds.element_spec)
for f, label in ds.take(2):
    print(float(f["a"]), f["b"].numpy().tolist(), int(label))

dataset1 = tf.data.Dataset.from_tensor_slices(tf.random.uniform([4, 10]))
dataset2 = tf.data.Dataset.from_tensor_slices((tf.random.uniform([4]), tf.random.uniform([4, 100], maxval=100, dtype=tf.int32)))
dataset3 = tf.data.Dataset.zip((dataset1, dataset2))
print(dataset1.element_spec)
print(dataset3.element_spec)

inc = tf.data.Dataset.range(100)
dec = tf.data.Dataset.range(0, -100, -1)
batched = tf.data.Dataset.zip((inc, dec)).batch(4)
for batch in batched.take(2):
    print([arr.numpy().tolist() for arr in batch])
print(batched.element_spec, tf.data.Dataset.zip((inc, dec)).batch(7, drop_remainder=True).element_spec)
print([b.numpy().tolist() for b in tf.data.Dataset.range(7).batch(3).unbatch().batch(2)])
print(tf.data.Dataset.range(10).cardinality().numpy(), tf.data.Dataset.range(10).repeat().cardinality().numpy(),
      tf.data.Dataset.range(10).filter(lambda x: x > 3).cardinality().numpy(), len(tf.data.Dataset.range(10).batch(3)))

both = tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(10, 12))
print([int(v) for v in both.as_numpy_iterator()], [int(v) for v in both.skip(2).take(2).as_numpy_iterator()])
print([(int(i), int(x)) for i, x in tf.data.Dataset.range(5, 8).enumerate()])

# shuffle with a seed: a permutation, different per epoch with reshuffling
sh = tf.data.Dataset.range(10).shuffle(10, seed=42)
e1, e2 = list(sh.as_numpy_iterator()), list(sh.as_numpy_iterator())
print(sorted(e1) == list(range(10)), sorted(e2) == list(range(10)), e1 != list(range(10)))
rep = tf.data.Dataset.range(4).shuffle(4, seed=1, reshuffle_each_iteration=False).repeat(2)
r = list(rep.as_numpy_iterator())
print(r[:4] == r[4:], sorted(r[:4]) == [0, 1, 2, 3])

# windows, flat_map, scan, group_by_window, take_while
windows = tf.data.Dataset.range(10).window(5, shift=1, drop_remainder=True)
print([w.numpy().tolist() for w in windows.flat_map(lambda w: w.batch(5)).take(3)])
running = tf.data.Dataset.range(1, 6).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s + x))
print([int(v) for v in running.as_numpy_iterator()])
grouped = tf.data.Dataset.range(10).group_by_window(key_func=lambda x: x % 2,
                                                   reduce_func=lambda key, w: w.batch(5), window_size=5)
print(sorted(b.numpy().tolist() for b in grouped))
print([int(v) for v in tf.data.Dataset.range(10).take_while(lambda x: x < 4)])
squares = tf.data.Dataset.range(6).map(lambda x: x * x, num_parallel_calls=tf.data.AUTOTUNE).prefetch(2).cache()
print([int(v) for v in squares.as_numpy_iterator()])

# a training-style loop over a dataset inside tf.function
xs = np.linspace(-1, 1, 12).astype(np.float32)
ys = (3 * xs - 1).astype(np.float32)
train = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(4)
w = tf.Variable(0.0)
b = tf.Variable(0.0)

@tf.function
def epoch(ds):
    total = tf.constant(0.0)
    for x, y in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((w * x + b - y) ** 2)
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
        total += loss
    return total

losses = [float(epoch(train)) for _ in range(3)]
wn, bn = 0.0, 0.0
ref = []
for _ in range(3):
    tot = 0.0
    for i in range(0, 12, 4):
        x, y = xs[i:i + 4].astype(np.float64), ys[i:i + 4].astype(np.float64)
        err = wn * x + bn - y
        tot += (err ** 2).mean()
        gw, gb = (2 * err * x).mean(), (2 * err).mean()
        wn, bn = wn - 0.1 * gw, bn - 0.1 * gb
    ref.append(tot)
print(np.allclose(losses, ref, rtol=1e-5), np.isclose(float(w), wn, rtol=1e-5), epoch.experimental_get_tracing_count())

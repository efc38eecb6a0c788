# "tf.data": window/flat_map, interleave (cycle and block order), a generator
# yielding lists (one tensor each) with padded_batch, zip, cardinality,
# datasets and iterators in tf.function, reduce, shard, take_while, and a
# generator breaking its output_signature (InvalidArgumentError when reached).
import numpy as np
import autograph_cli.tf as tf


def L(ds):
    return [np.asarray(e).tolist() if not isinstance(e, tuple) else tuple(np.asarray(c).tolist() for c in e) for e in ds.as_numpy_iterator()]



ds = tf.data.Dataset.range(10)
print(L(ds.window(3, shift=2, drop_remainder=True).flat_map(lambda w: w.batch(3))))
print(L(ds.interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(2), cycle_length=2, block_length=1).take(8)))
files = tf.data.Dataset.from_tensor_slices([1, 2, 3])
print(L(files.interleave(lambda n: tf.data.Dataset.range(n), cycle_length=3)))
print(L(files.interleave(lambda n: tf.data.Dataset.range(n), cycle_length=2, num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)))

def gen():
    for i in range(1, 4):
        yield i, [1] * i
g = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec(shape=(), dtype=tf.int32), tf.TensorSpec(shape=(None,), dtype=tf.int32)))
print(g.element_spec)
for a, b in g:
    print(a.numpy(), b.numpy())
print(L(g.padded_batch(2, padded_shapes=((), (4,)), padding_values=(0, -1))))
z = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)))
print(L(z.map(lambda a, b: a + b)))
print(z.cardinality().numpy(), ds.filter(lambda x: x > 3).cardinality().numpy() == tf.data.UNKNOWN_CARDINALITY, ds.repeat().cardinality().numpy() == tf.data.INFINITE_CARDINALITY)

@tf.function
def total(ds):
    s = tf.constant(0, tf.int64)
    n = 0
    for x in ds:
        s += x
    return s

print(total(ds).numpy())

@tf.function
def iterate_twice(ds):
    it = iter(ds)
    a = next(it)
    b = next(it)
    return a + b
print(iterate_twice(ds.skip(4)).numpy())

@tf.function
def reduce_fn(ds):
    return ds.reduce(tf.constant(0, tf.int64), lambda acc, x: acc + x * x)
print(reduce_fn(ds).numpy(), sum(i*i for i in range(10)))

it = iter(tf.data.Dataset.range(5))
@tf.function
def next_in_fn(iterator):
    return next(iterator) * 10
print(next_in_fn(it).numpy(), next_in_fn(it).numpy(), next_in_fn(it).numpy(), next_in_fn.experimental_get_tracing_count())
print(next(it).numpy())
d2 = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [4., 5., 6.]})
print(d2.element_spec)
print(sorted(int(e["a"]) for e in d2.shuffle(3, seed=1)))
print(L(tf.data.Dataset.range(7).batch(3, drop_remainder=True)))
print(tf.data.Dataset.range(7).batch(3).element_spec, tf.data.Dataset.range(7).batch(3, drop_remainder=True).element_spec)
print(L(tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).unbatch()))
print(L(tf.data.Dataset.range(6).shard(2, 1)))
print(L(tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(2))))
print(L(tf.data.Dataset.range(4).apply(lambda d: d.map(lambda x: x + 1))))
print(L(tf.data.Dataset.range(5).take_while(lambda x: x < 3)))
print(L(tf.data.Dataset.range(1, 4).flat_map(lambda x: tf.data.Dataset.from_tensors(x).repeat(x))))


# a generator that breaks its promised signature fails when the iterator reaches it
def bad_shape():
    yield [1.0, 2.0]
    yield [1.0, 2.0, 3.0]


def bad_structure():
    yield 1, 2


for bad, sig in ((bad_shape, tf.TensorSpec(shape=(2,), dtype=tf.float32)),
                 (bad_structure, (tf.TensorSpec((), tf.int32),) * 3)):
    got = []
    try:
        for e in tf.data.Dataset.from_generator(bad, output_signature=sig):
            got.append(e.numpy().tolist())
    except tf.errors.InvalidArgumentError as e:
        print(got, "InvalidArgumentError", "`generator` yielded an element" in str(e))

# "Better performance with the tf.data API": the guide's ArtificialDataset
# (a tf.data.Dataset subclass whose __new__ returns from_generator with
# args), prefetch / interleave / parallel map with AUTOTUNE, cache before and
# after an expensive map, vectorized mapping (batch before map), Options
# (deterministic), and the resulting element order checked.
import time

import numpy as np
import autograph_cli.tf as tf


class ArtificialDataset(tf.data.Dataset):
    def _generator(num_samples):
        # Opening the file
        time.sleep(0.001)
        for sample_idx in range(num_samples):
            # Reading data (line, record) from the file
            yield (sample_idx,)

    def __new__(cls, num_samples=3):
        return tf.data.Dataset.from_generator(
            cls._generator,
            output_signature=tf.TensorSpec(shape=(1,), dtype=tf.int64),
            args=(num_samples,),
        )


def benchmark(dataset, num_epochs=2):
    seen = []
    for epoch_num in range(num_epochs):
        for sample in dataset:
            seen.append(sample.numpy().tolist())
    return seen


print(benchmark(ArtificialDataset()))
print(benchmark(ArtificialDataset().prefetch(tf.data.AUTOTUNE)))
print(benchmark(tf.data.Dataset.range(2).interleave(lambda _: ArtificialDataset())))
print(benchmark(tf.data.Dataset.range(2).interleave(lambda _: ArtificialDataset(),
                                                    num_parallel_calls=tf.data.AUTOTUNE), num_epochs=1))


def mapped_function(s):
    # Do some hard pre-processing
    tf.py_function(lambda: time.sleep(0.001), [], ())
    return s


print(benchmark(ArtificialDataset().map(mapped_function), num_epochs=1))
print(benchmark(ArtificialDataset().map(mapped_function, num_parallel_calls=tf.data.AUTOTUNE), num_epochs=1))

calls = []


def expensive(x):
    def record(v):
        calls.append(int(v))
        return v * 10
    return tf.py_function(record, [x], tf.int64)


cached = tf.data.Dataset.range(4).map(expensive).cache()
print(benchmark(cached, num_epochs=3), "map calls:", len(calls))
calls.clear()
uncached = tf.data.Dataset.range(4).cache().map(expensive)
print(benchmark(uncached, num_epochs=3), "map calls:", len(calls))

fast_dataset = tf.data.Dataset.range(10000)


def increment(x):
    return x + 1


scalar = fast_dataset.map(increment).batch(256)
vectorized = fast_dataset.batch(256).map(increment)
a = np.concatenate([b.numpy() for b in scalar])
b = np.concatenate([b.numpy() for b in vectorized])
print("vectorized map same values:", np.array_equal(a, b), a[:3], a[-1], vectorized.element_spec)

options = tf.data.Options()
options.deterministic = False
fast = tf.data.Dataset.range(6).map(lambda x: x * x, num_parallel_calls=tf.data.AUTOTUNE).with_options(options)
print(sorted(int(v) for v in fast.as_numpy_iterator()), fast.options().deterministic)
ordered = tf.data.Dataset.range(6).map(lambda x: x * x, num_parallel_calls=4, deterministic=True)
print([int(v) for v in ordered.as_numpy_iterator()])
print("cardinality:", int(ArtificialDataset().cardinality()) == tf.data.UNKNOWN_CARDINALITY,
      int(fast_dataset.batch(256).cardinality()), int(fast_dataset.batch(256, drop_remainder=True).cardinality()))

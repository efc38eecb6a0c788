# "tf.data" inside and around tf.function: map with AUTOTUNE, cache, prefetch,
# a staged loop over the dataset that breaks on a tensor condition and counts
# in a Python int, iterators with next/get_next/get_next_as_optional (eager),
# batch shapes with and without drop_remainder.
import numpy as np
import autograph_cli.tf as tf

ds = tf.data.Dataset.range(1, 8).map(lambda x: tf.cast(x, tf.float32) * 0.5, num_parallel_calls=tf.data.AUTOTUNE).cache().prefetch(tf.data.AUTOTUNE)


@tf.function
def sum_until(ds, limit):
    total = tf.constant(0.0)
    count = 0
    for x in ds:
        if total + x > limit:
            break
        total += x
        count += 1
    return total, count


t, c = sum_until(ds, tf.constant(5.0))
print(float(t), int(c))


it = iter(ds.batch(3))
print(next(it).numpy().tolist(), it.get_next().numpy().tolist(), bool(it.get_next_as_optional().has_value()), bool(it.get_next_as_optional().has_value()))
print([b.shape for b in ds.batch(3, drop_remainder=False)], ds.batch(3).element_spec.shape)

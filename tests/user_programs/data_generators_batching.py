# tf.data guide, "Consuming Python generators" and "Batching tensors with
# padding": from_generator with an output_signature of unknown lengths,
# padded_batch, bucket_by_sequence_length, a dict of features through
# map/filter/batch, and the same pipeline consumed by a tf.function that
# trains on it; checked against plain Python.
import numpy as np
import autograph_cli.tf as tf


def gen_series():
    i = 0
    while i < 8:
        size = (i * 3) % 5 + 1
        yield i, np.arange(size, dtype=np.float32) + i
        i += 1


ds_series = tf.data.Dataset.from_generator(
    gen_series,
    output_signature=(tf.TensorSpec(shape=(), dtype=tf.int32), tf.TensorSpec(shape=(None,), dtype=tf.float32)))
print(ds_series.element_spec)
batched = ds_series.shuffle(8, seed=0).padded_batch(3)
rows = []
for ids, seqs in batched:
    for i, s in zip(ids.numpy(), seqs.numpy()):
        n = (int(i) * 3) % 5 + 1
        rows.append(bool(np.array_equal(s[:n], np.arange(n) + i)) and bool(np.all(s[n:] == 0)))
print(len(rows), all(rows), sorted(int(i) for ids, _ in batched for i in ids.numpy()) == list(range(8)))

padded = tf.data.Dataset.range(1, 6).map(lambda x: tf.fill([tf.cast(x, tf.int32)], x)).padded_batch(
    2, padded_shapes=(6,), padding_values=tf.constant(-1, tf.int64))
print([b.numpy().tolist() for b in padded])

# bucketing by length: each batch holds sequences of one bucket
lengths = [1, 9, 3, 12, 2, 8, 4, 11, 5, 10]
seqs = tf.data.Dataset.from_generator(lambda: (np.ones(n, np.int32) * n for n in lengths),
                                      output_signature=tf.TensorSpec([None], tf.int32))
buckets = seqs.bucket_by_sequence_length(element_length_func=lambda e: tf.shape(e)[0],
                                         bucket_boundaries=[6], bucket_batch_sizes=[3, 3])
seen = []
for b in buckets:
    values = sorted({int(v) for v in b.numpy().reshape(-1) if v != 0})
    seen.extend(values)
    print(b.shape[0], all(v < 6 for v in values) or all(v >= 6 for v in values))
print(sorted(seen) == sorted(lengths))

# dict features through map/filter/batch, consumed in a tf.function
features = {"x": np.linspace(0, 1, 10).astype(np.float32), "w": np.arange(10, dtype=np.float32) % 3}
ds = tf.data.Dataset.from_tensor_slices(features).filter(lambda d: d["w"] > 0).map(
    lambda d: {"x": d["x"] * 2.0, "w": d["w"]}).batch(4)


@tf.function
def weighted_mean(ds):
    num = tf.constant(0.0)
    den = tf.constant(0.0)
    for batch in ds:
        num += tf.reduce_sum(batch["x"] * batch["w"])
        den += tf.reduce_sum(batch["w"])
    return num / den


keep = features["w"] > 0
ref = (features["x"][keep] * 2 * features["w"][keep]).sum() / features["w"][keep].sum()
print(np.isclose(float(weighted_mean(ds)), ref), [int(b["x"].shape[0]) for b in ds])

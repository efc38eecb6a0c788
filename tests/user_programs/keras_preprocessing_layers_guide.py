""""Working with preprocessing layers": Normalization.adapt (mean/variance, invert),
StringLookup (vocabulary, OOV, invert, one_hot/multi_hot/count output modes),
IntegerLookup, CategoryEncoding (one_hot, multi_hot, count with weights),
TextVectorization (int and multi_hot and tf_idf? modes, output_sequence_length),
Hashing and Discretization, and preprocessing inside a model and in tf.data."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers

training_data = np.array([[0.1, 0.2, 0.4], [0.8, 0.9, 1.0], [1.5, 1.6, 1.7]], "float32")
normalizer = layers.Normalization()
normalizer.adapt(training_data)
normalized_data = normalizer(training_data)
print("normalized mean/var:", np.round(normalized_data.numpy().mean(), 5) == 0,
      bool(np.allclose(normalized_data.numpy().var(axis=0), 1.0, atol=1e-3)))
print("adapted:", np.round(normalizer.mean.numpy().astype("float64"), 4).tolist())
denorm = layers.Normalization(mean=3.0, variance=2.0, invert=True)
print("invert:", np.round(denorm(np.array([[-1.0], [0.0], [1.0]], "float32")).numpy().ravel().astype("float64"), 4).tolist())

data = tf.constant([["a", "c", "d"], ["d", "z", "b"]])
lookup = layers.StringLookup()
lookup.adapt(tf.constant(["a", "b", "c", "d", "d", "d", "c", "c", "a"]))
print("vocabulary:", lookup.get_vocabulary(), lookup.vocabulary_size())
print("lookup:", lookup(data).numpy().tolist())
vocab = ["a", "b", "c", "d"]
layer = layers.StringLookup(vocabulary=vocab)
print("fixed vocab:", layer(data).numpy().tolist())
inverse = layers.StringLookup(vocabulary=vocab, invert=True)
print("invert:", inverse(tf.constant([[1, 3, 4], [4, 0, 2]])).numpy().tolist())
one_hot = layers.StringLookup(vocabulary=vocab, output_mode="one_hot")
print("one_hot:", one_hot(tf.constant(["a", "z"])).numpy().astype(int).tolist())
multi_hot = layers.StringLookup(vocabulary=vocab, output_mode="multi_hot")
print("multi_hot:", multi_hot(data).numpy().astype(int).tolist())
count = layers.StringLookup(vocabulary=vocab, output_mode="count")
print("count:", count(tf.constant([["a", "a", "d"]])).numpy().astype(int).tolist())

int_lookup = layers.IntegerLookup()
int_lookup.adapt(tf.constant([12, 36, 1138, 42, 42, 12, 12]))
print("integer vocabulary:", int_lookup.get_vocabulary())
print("integer lookup:", int_lookup(tf.constant([[12, 1138, 42], [42, 1000, 36]])).numpy().tolist())

encoder = layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")
print("category one_hot:", encoder(tf.constant([3, 2, 0, 1])).numpy().astype(int).tolist())
encoder = layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
print("category multi_hot:", encoder(tf.constant([[0, 1], [0, 0], [1, 2], [3, 1]])).numpy().astype(int).tolist())
encoder = layers.CategoryEncoding(num_tokens=4, output_mode="count")
counts = encoder(tf.constant([[0, 1], [0, 0], [1, 2], [3, 1]]),
                 count_weights=np.array([[0.1, 0.2], [0.1, 0.1], [0.2, 0.3], [0.4, 0.2]]))
print("category weighted count:", np.round(counts.numpy().astype("float64"), 3).tolist())

text = ["The Brain is wider than the Sky", "For put them side by side", "The one the other will contain",
        "With ease and You beside"]
vectorizer = layers.TextVectorization(output_mode="int", output_sequence_length=6)
vectorizer.adapt(text)
vocabulary = vectorizer.get_vocabulary()
print("text vocabulary:", vocabulary[:4], len(vocabulary))
print("encoded:", vectorizer(["The Brain is wider than the Sky"]).numpy().tolist())
print("unknown words:", vectorizer(["the zebra"]).numpy().tolist())
mh = layers.TextVectorization(output_mode="multi_hot")
mh.adapt(text)
print("text multi_hot:", mh(["the brain"]).numpy().shape, int(mh(["the brain"]).numpy().sum()))
ds = tf.data.Dataset.from_tensor_slices(text).batch(2).map(vectorizer)
print("in tf.data:", [b.shape for b in ds])

inputs = keras.Input(shape=(1,), dtype="string")
x = vectorizer(inputs)
x = layers.Embedding(len(vocabulary), 4)(x)
x = layers.GlobalAveragePooling1D()(x)
outputs = layers.Dense(1)(x)
end_to_end = keras.Model(inputs, outputs)
print("end-to-end:", end_to_end(tf.constant([["the brain"], ["with ease"]])).shape)

hashing = layers.Hashing(num_bins=3)
h = hashing(tf.constant([["A"], ["B"], ["C"], ["D"], ["E"]])).numpy()
print("hashing in range:", h.shape, bool(((h >= 0) & (h < 3)).all()),
      bool(np.array_equal(h, hashing(tf.constant([["A"], ["B"], ["C"], ["D"], ["E"]])).numpy())))
disc = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
print("discretization:", disc(tf.constant([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])).numpy().tolist())
adapted = layers.Discretization(num_bins=4, epsilon=0.01)
adapted.adapt(np.arange(0, 8, dtype="float32"))
print("adapted bins:", adapted(np.array([[0.0, 3.0, 5.0, 7.5]], "float32")).numpy().tolist())

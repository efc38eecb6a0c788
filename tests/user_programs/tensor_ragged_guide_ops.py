# "Ragged tensors" guide: constructing (constant, from_value_rowids,
# from_row_lengths, from_row_splits), math and reductions, indexing,
# tf.ragged.map_flat_values, conversion to/from dense and sparse, ragged
# tensors as tf.function arguments (a RaggedTensorSpec signature), in
# tf.data (batch of variable-length rows via ragged_batch), and in a Keras-free
# embedding-average model trained with the tape inside tf.function.
import numpy as np
import autograph_cli.tf as tf

digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])
print(tf.add(digits, 3))
print(tf.reduce_mean(digits, axis=1))
print(tf.concat([digits, [[5, 3]]], axis=0))
print(tf.tile(digits, [1, 2]))
print(tf.strings.substr(words, 0, 2))
print(tf.map_fn(tf.math.square, digits))
print(digits[0])
print(digits[:, :2])
print(digits[:, -2:])
print(digits + tf.constant([[1], [2], [3], [4], [5]]))
print(tf.ragged.map_flat_values(lambda x: x * 2, digits))
print(digits.to_list())
print(digits.numpy()[2])

print(tf.RaggedTensor.from_value_rowids(values=[3, 1, 4, 1, 5, 9, 2], value_rowids=[0, 0, 0, 0, 2, 2, 3]))
print(tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 2, 1]))
print(tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7]))
rt = tf.RaggedTensor.from_nested_row_lengths(flat_values=[3, 1, 4, 1, 5],
                                             nested_row_lengths=([2, 0, 1], [3, 1, 1]))
print(rt, rt.ragged_rank, rt.shape)

ragged_sentences = tf.ragged.constant([["Hi"], ["Welcome", "to", "the", "fair"], ["Have", "fun"]])
print(ragged_sentences.to_tensor(default_value="", shape=[None, 10]).shape)
x = [[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]]
print(tf.RaggedTensor.from_tensor(x, padding=-1))
st = ragged_sentences.to_sparse()
print(st.indices.numpy().tolist()[:3], st.dense_shape.numpy())
print(tf.RaggedTensor.from_sparse(st).to_list() == ragged_sentences.to_list())
print(tf.ragged.constant([[1, 2], [3]]).bounding_shape())
print(tf.ragged.boolean_mask(digits, digits > 2))


# ragged arguments and a RaggedTensorSpec signature
@tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
def max_and_len(rt):
    return tf.reduce_max(rt, axis=1), rt.row_lengths()


print(max_and_len(tf.ragged.constant([[1, 7, 2], [4], [3, 3]])))
print(max_and_len(tf.ragged.constant([[9, 1]])))
print("traces:", max_and_len.experimental_get_tracing_count())


@tf.function
def row_cumsums(rt):
    return tf.map_fn(lambda row: tf.cumsum(row), rt)


print(row_cumsums(digits))
print(row_cumsums(tf.ragged.constant([[1.5, 2.0]])))

# an embedding average over ragged token ids, trained with the tape inside tf.function
tokens = tf.ragged.constant([[1, 2, 3], [0], [2, 2], [3, 0, 1, 1]])
labels = tf.constant([1.0, 0.0, 1.0, 0.0])
emb0 = np.array([[0.1], [0.2], [-0.1], [0.3]], np.float32)
table = tf.Variable(emb0)


@tf.function
def train_step(tokens, labels):
    with tf.GradientTape() as tape:
        vectors = tf.ragged.map_flat_values(tf.nn.embedding_lookup, table, tokens)
        logits = tf.reduce_mean(vectors, axis=1)[:, 0]
        loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
    grad = tape.gradient(loss, table)
    table.assign_sub(0.5 * tf.convert_to_tensor(grad))
    return loss


losses = [float(train_step(tokens, labels)) for _ in range(3)]
E = emb0[:, 0].astype(np.float64)
rows = [[1, 2, 3], [0], [2, 2], [3, 0, 1, 1]]
ref = []
for _ in range(3):
    z = np.array([E[r].mean() for r in rows])
    y = labels.numpy()
    ref.append(np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-abs(z)))))
    dz = (1 / (1 + np.exp(-z)) - y) / 4
    g = np.zeros_like(E)
    for r, d in zip(rows, dz):
        for t in r:
            g[t] += d / len(r)
    E -= 0.5 * g
print("embedding training matches numpy:", np.allclose(losses, ref, atol=1e-6), np.allclose(table.numpy()[:, 0], E, atol=1e-6))

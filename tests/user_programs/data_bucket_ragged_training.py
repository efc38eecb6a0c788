# Variable-length sequences through tf.data into a training step: a
# generator of token lists (from_generator with a [None] signature),
# bucket_by_sequence_length padding each bucket to its own length, a
# padded_batch alternative turned into a RaggedTensor, and a bag-of-words
# model whose tf.function step (input_signature [None, None]) sees every
# bucket's shape with a single trace; the mean of each row ignores padding.
import numpy as np
import autograph_cli.tf as tf

sequences = [[1, 2], [3], [4, 5, 6, 7], [2, 2, 2], [5], [6, 1, 1, 1, 1], [7, 3]]
labels = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]


def gen():
    for s, y in zip(sequences, labels):
        yield s, y


ds = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec([None], tf.int32),
                                                           tf.TensorSpec([], tf.float32)))
print(ds.element_spec)
bucketed = ds.bucket_by_sequence_length(element_length_func=lambda s, y: tf.shape(s)[0],
                                        bucket_boundaries=[3], bucket_batch_sizes=[2, 2])
batches = [(s.numpy().tolist(), y.numpy().tolist()) for s, y in bucketed]
for s, y in batches:
    print(s, y)

emb = tf.Variable(np.linspace(-0.5, 0.5, 8 * 2).reshape(8, 2).astype(np.float32))
w = tf.Variable([[0.3], [-0.2]])


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32), tf.TensorSpec([None], tf.float32)])
def step(tokens, y):
    mask = tf.cast(tokens > 0, tf.float32)[:, :, None]
    with tf.GradientTape() as tape:
        vecs = tf.gather(emb, tokens) * mask
        mean = tf.reduce_sum(vecs, 1) / tf.reduce_sum(mask, 1)
        logits = tf.squeeze(tf.matmul(mean, w), 1)
        loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
    ge, gw = tape.gradient(loss, [emb, w])
    emb.assign_sub(0.5 * tf.convert_to_tensor(ge))
    w.assign_sub(0.5 * gw)
    return loss


losses = [float(step(tokens, y)) for tokens, y in bucketed]
print("losses:", [round(l, 5) for l in losses], "traces:", step.experimental_get_tracing_count())

padded = ds.padded_batch(3, padded_shapes=([None], []))
for tokens, y in padded.take(1):
    print(tokens.numpy().tolist(), tf.RaggedTensor.from_tensor(tokens, padding=0).to_list())

# numpy replay of the bucketed training
E, W = np.linspace(-0.5, 0.5, 16).reshape(8, 2), np.array([[0.3], [-0.2]])
ref = []
for s, y in batches:
    t = np.array(s)
    m = (t > 0).astype(float)[:, :, None]
    mean = (E[t] * m).sum(1) / m.sum(1)
    z = (mean @ W)[:, 0]
    yy = np.array(y)
    ref.append(np.mean(np.maximum(z, 0) - z * yy + np.log1p(np.exp(-abs(z)))))
    dz = (1 / (1 + np.exp(-z)) - yy) / len(yy)
    gW = mean.T @ dz[:, None]
    dmean = dz[:, None] @ W.T
    gE = np.zeros_like(E)
    for i in range(t.shape[0]):
        for j in range(t.shape[1]):
            gE[t[i, j]] += m[i, j, 0] * dmean[i] / m[i].sum()
    E, W = E - 0.5 * gE, W - 0.5 * gW
print("matches numpy:", np.allclose(losses, ref, atol=1e-6), np.allclose(emb.numpy(), E, atol=1e-6))

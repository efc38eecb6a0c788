# tf.nn helpers the guides use: embedding_lookup (with max_norm, and its
# gradient in tf.function), top_k / in_top_k, compute_average_loss and
# scale_regularization_loss (custom training loops), weighted and Poisson
# losses, zero_fraction, crelu, weighted/normalized moments, 1-D pooling.
import math
import numpy as np
import autograph_cli.tf as tf
p = tf.constant([[0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.5, 0.2, 0.3]])
print(tf.math.in_top_k(tf.constant([1, 0, 2]), p, 1).numpy().tolist(), tf.nn.in_top_k([1, 1, 2], p, 2).numpy().tolist())
print(tf.nn.top_k(p, 2).indices.numpy().tolist())
print(tf.nn.embedding_lookup(tf.reshape(tf.range(6.0), [3, 2]), [[2, 0]]).numpy().tolist())
print(tf.nn.embedding_lookup(tf.constant([[3.0, 4.0]]), [0, 0], max_norm=1.0).numpy().tolist())
print(float(tf.nn.compute_average_loss([1.0, 2.0, 3.0, 6.0])), float(tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=4)), float(tf.nn.compute_average_loss([1.0, 2.0], sample_weight=[1.0, 0.0])))
print(float(tf.nn.scale_regularization_loss([tf.constant(1.0), tf.constant([2.0, 3.0])])))
x = np.array([-2.0, 0.0, 3.0], np.float32); z = np.array([1.0, 0.0, 1.0], np.float32)
ref = -(2.0 * z * np.log(1/(1+np.exp(-x))) + (1 - z) * np.log(1 - 1/(1+np.exp(-x))))
print(np.allclose(tf.nn.weighted_cross_entropy_with_logits(z, x, 2.0).numpy(), ref, atol=1e-6))
print(float(tf.nn.zero_fraction([0, 1, 0, 3])))
print(tf.nn.crelu([[-1.0, 2.0]]).numpy().tolist())
t = np.array([0.0, 3.0]); c = np.array([0.5, 1.0])
full = np.exp(c) - t * c + np.where(t > 1, t * np.log(np.maximum(t, 1)) - t + 0.5 * np.log(2 * math.pi * np.maximum(t, 1)), 0)
print(np.allclose(tf.nn.log_poisson_loss(t, c, compute_full_loss=True).numpy(), full), np.allclose(tf.nn.log_poisson_loss(t, c).numpy(), np.exp(c) - t * c))
m, v = tf.nn.weighted_moments(tf.constant([1.0, 2.0, 4.0]), [0], tf.constant([1.0, 1.0, 2.0]))
print(float(m), float(v))
m, v = tf.nn.normalize_moments(4.0, 10.0, 30.0, None)
print(float(m), float(v))
seq = tf.reshape(tf.range(8.0), [1, 4, 2])
print(tf.nn.max_pool1d(seq, 2, 2, "VALID").numpy().tolist(), tf.nn.avg_pool1d(seq, 2, 1, "SAME").shape)
emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
@tf.function
def step(ids):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, ids) ** 2)
    return tape.gradient(loss, emb)
print(tf.convert_to_tensor(step(tf.constant([1, 1]))).numpy().tolist())

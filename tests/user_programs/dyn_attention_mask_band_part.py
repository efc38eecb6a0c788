# The Transformer tutorial's pieces with dynamic sequence lengths: a
# look-ahead mask from tf.linalg.band_part over tf.shape, sinusoidal
# positional encodings, masked scaled dot-product attention, and a training
# step (input_signature [None, None, D]) with the tape inside tf.function;
# plus tf.repeat / tf.roll / tf.meshgrid / tf.searchsorted as used for
# batching and bucketing. Checked against numpy.
import numpy as np
import autograph_cli.tf as tf

print(tf.linalg.band_part(tf.ones((3, 3)), -1, 0))
print(tf.repeat(["a", "b", "c"], repeats=[3, 0, 2], axis=0))
print(tf.roll([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], shift=[1, -2], axis=[0, 1]))
X, Y = tf.meshgrid([1, 2, 3], [4, 5])
print(X.numpy().tolist(), Y.numpy().tolist())
print(tf.searchsorted([1.0, 5.0, 10.0], [0.5, 5.0, 7.0, 12.0]), tf.searchsorted([1, 5, 10], [5], side="right"))


def positional_encoding(length, depth):
    depth = depth / 2
    positions = np.arange(length)[:, np.newaxis]
    depths = np.arange(depth)[np.newaxis, :] / depth
    angle_rates = 1 / (10000 ** depths)
    angle_rads = positions * angle_rates
    pos_encoding = np.concatenate([np.sin(angle_rads), np.cos(angle_rads)], axis=-1)
    return tf.cast(pos_encoding, dtype=tf.float32)


D = 4
POS = positional_encoding(16, D)
rng = np.random.RandomState(1)
wq0, wk0, wv0 = [(rng.normal(size=(D, D)) * 0.5).astype(np.float32) for _ in range(3)]
wq, wk, wv = tf.Variable(wq0), tf.Variable(wk0), tf.Variable(wv0)


def attention(x):
    T = tf.shape(x)[1]
    x = x + POS[tf.newaxis, :T, :]
    q, k, v = tf.matmul(x, wq), tf.matmul(x, wk), tf.matmul(x, wv)
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(D, tf.float32))
    look_ahead = 1 - tf.linalg.band_part(tf.ones((T, T)), -1, 0)
    scores += look_ahead * -1e9
    weights = tf.nn.softmax(scores, axis=-1)
    return tf.matmul(weights, v), weights


@tf.function(input_signature=[tf.TensorSpec([None, None, D], tf.float32)])
def train_step(x):
    with tf.GradientTape() as tape:
        out, weights = attention(x)
        target = tf.roll(x, shift=-1, axis=1)       # predict the next position (wrapping)
        loss = tf.reduce_mean(tf.square(out - target))
    grads = tape.gradient(loss, [wq, wk, wv])
    for var, g in zip([wq, wk, wv], grads):
        var.assign_sub(0.1 * g)
    return loss, weights


xs = [rng.normal(size=(2, 3, D)).astype(np.float32), rng.normal(size=(1, 5, D)).astype(np.float32)]
losses = []
for x in xs:
    loss, weights = train_step(x)
    losses.append(float(loss))
    print("weights upper triangle zero:", bool(np.all(np.triu(weights.numpy()[0], 1) < 1e-6)),
          "rows sum to 1:", np.allclose(weights.numpy().sum(-1), 1.0, atol=1e-6))
print("traces:", train_step.experimental_get_tracing_count())


def np_forward(x, Wq, Wk, Wv):
    T = x.shape[1]
    h = x + POS.numpy()[None, :T]
    q, k, v = h @ Wq, h @ Wk, h @ Wv
    s = q @ k.transpose(0, 2, 1) / np.sqrt(D) + (1 - np.tril(np.ones((T, T)))) * -1e9
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return np.mean((w @ v - np.roll(x, -1, axis=1)) ** 2)


P = [wq0.astype(np.float64), wk0.astype(np.float64), wv0.astype(np.float64)]
ref = []
for x in xs:
    x = x.astype(np.float64)
    ref.append(np_forward(x, *P))
    grads = []
    for i in range(3):   # central differences for the gradient
        g = np.zeros_like(P[i])
        for idx in np.ndindex(P[i].shape):
            hi = [p.copy() for p in P]
            lo = [p.copy() for p in P]
            hi[i][idx] += 1e-6
            lo[i][idx] -= 1e-6
            g[idx] = (np_forward(x, *hi) - np_forward(x, *lo)) / 2e-6
        grads.append(g)
    P = [p - 0.1 * g for p, g in zip(P, grads)]
print("matches numpy:", np.allclose(losses, ref, rtol=1e-5), np.allclose(wq.numpy(), P[0], atol=1e-5),
      np.allclose(wv.numpy(), P[2], atol=1e-5))

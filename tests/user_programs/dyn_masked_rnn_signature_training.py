# Dynamic shapes in a training step: padded token batches of varying batch
# size AND length through one tf.function with input_signature [None, None];
# lengths from the padding (tf.math.count_nonzero), a mask from
# tf.sequence_mask(lengths, tf.shape(x)[1]), an Elman RNN unrolled by a
# staged loop over tf.range(tf.shape(x)[1]) that keeps the state where the
# mask is off, outputs in a TensorArray, the tape around the whole loop,
# gradients clipped by norm, one trace for all shapes.
import numpy as np
import autograph_cli.tf as tf

V, E, H = 6, 3, 4
rng = np.random.RandomState(7)
emb0 = (rng.normal(size=(V, E)) * 0.3).astype(np.float32)
wx0 = (rng.normal(size=(E, H)) * 0.3).astype(np.float32)
wh0 = (rng.normal(size=(H, H)) * 0.3).astype(np.float32)
wo0 = (rng.normal(size=(H, 1)) * 0.3).astype(np.float32)
emb, wx, wh, wo = (tf.Variable(v) for v in (emb0, wx0, wh0, wo0))
params = [emb, wx, wh, wo]


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32), tf.TensorSpec([None], tf.float32)])
def train_step(tokens, targets):
    lengths = tf.math.count_nonzero(tokens, axis=1, dtype=tf.int32)
    mask = tf.sequence_mask(lengths, tf.shape(tokens)[1])
    with tf.GradientTape() as tape:
        x = tf.nn.embedding_lookup(emb, tokens)                 # [B, T, E]
        h = tf.zeros([tf.shape(tokens)[0], H])
        states = tf.TensorArray(tf.float32, size=tf.shape(tokens)[1])
        for t in tf.range(tf.shape(tokens)[1]):
            new_h = tf.tanh(tf.matmul(x[:, t, :], wx) + tf.matmul(h, wh))
            h = tf.where(mask[:, t:t + 1], new_h, h)
            states = states.write(t, h)
        pred = tf.squeeze(tf.matmul(h, wo), 1)
        loss = tf.reduce_mean(tf.square(pred - targets))
    grads = tape.gradient(loss, params)
    grads = [tf.clip_by_norm(tf.convert_to_tensor(g), 1.0) for g in grads]
    for p, g in zip(params, grads):
        p.assign_sub(0.5 * g)
    return loss, tf.transpose(states.stack(), [1, 0, 2]).shape[1], lengths


batches = [
    (np.array([[1, 2, 3, 0], [4, 0, 0, 0]], np.int32), np.array([0.5, -0.5], np.float32)),
    (np.array([[5, 1], [2, 2], [3, 0]], np.int32), np.array([1.0, 0.0, -1.0], np.float32)),
    (np.array([[1, 2, 3, 4, 5, 1]], np.int32), np.array([0.25], np.float32)),
]
out = []
for tokens, targets in batches:
    loss, t_dim, lengths = train_step(tokens, targets)
    out.append(float(loss))
    print("batch", tokens.shape, "lengths", lengths.numpy().tolist(), "loss %.6f" % float(loss))
print("traces:", train_step.experimental_get_tracing_count())
print(train_step.get_concrete_function().structured_input_signature[0])


# numpy: forward and backward through time by hand
def np_step(P, tokens, targets):
    E_, Wx, Wh, Wo = P
    B, T = tokens.shape
    lengths = (tokens != 0).sum(1)
    hs, pre = [np.zeros((B, H))], []
    for t in range(T):
        a = E_[tokens[:, t]] @ Wx + hs[-1] @ Wh
        n = np.tanh(a)
        m = (t < lengths)[:, None]
        pre.append((a, n, m))
        hs.append(np.where(m, n, hs[-1]))
    pred = (hs[-1] @ Wo)[:, 0]
    loss = np.mean((pred - targets) ** 2)
    dpred = 2 * (pred - targets) / B
    gWo = hs[-1].T @ dpred[:, None]
    dh = dpred[:, None] @ Wo.T
    gE, gWx, gWh = np.zeros_like(E_), np.zeros_like(Wx), np.zeros_like(Wh)
    for t in reversed(range(T)):
        a, n, m = pre[t]
        dn = np.where(m, dh, 0)
        da = dn * (1 - n ** 2)
        gWx += E_[tokens[:, t]].T @ da
        gWh += hs[t].T @ da
        np.add.at(gE, tokens[:, t], da @ Wx.T)
        dh = np.where(m, 0, dh) + da @ Wh.T
    grads = []
    for g in (gE, gWx, gWh, gWo):
        nrm = np.sqrt((g ** 2).sum())
        grads.append(g * 1.0 / max(nrm, 1.0))
    return [p - 0.5 * g for p, g in zip(P, grads)], loss


P = [v.astype(np.float64) for v in (emb0, wx0, wh0, wo0)]
ref = []
for tokens, targets in batches:
    P, l = np_step(P, tokens, targets)
    ref.append(l)
print("matches numpy:", np.allclose(out, ref, rtol=1e-5),
      all(np.allclose(p.numpy(), q, atol=1e-5) for p, q in zip(params, P)))

# "Writing a training loop from scratch": a softmax classifier trained over a
# tf.data pipeline by a tf.function step with the tape inside, gradients
# clipped by tf.clip_by_global_norm, SparseCategoricalAccuracy / Mean metrics
# updated in the step and reset at each epoch's end, a validation step.
import numpy as np
import autograph_cli.tf as tf

rng = np.random.RandomState(0)
x = rng.normal(size=(12, 4)).astype(np.float32)
y = (np.argmax(x[:, :3], axis=1)).astype(np.int64)
w0 = (rng.normal(size=(4, 3)) * 0.1).astype(np.float32)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(4,)),
    tf.keras.layers.Dense(3, kernel_initializer=tf.keras.initializers.Constant(w0), bias_initializer="zeros"),
])
optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()
train_loss = tf.keras.metrics.Mean(name="train_loss")
val_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()

train_dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
val_dataset = tf.data.Dataset.from_tensor_slices((x[:6], y[:6])).batch(3)
CLIP = 0.25


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    grads, global_norm = tf.clip_by_global_norm(grads, CLIP)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    train_acc_metric.update_state(y, logits)
    train_loss.update_state(loss_value)
    return loss_value, global_norm


@tf.function
def test_step(x, y):
    val_logits = model(x, training=False)
    val_acc_metric.update_state(y, val_logits)


history = []
for epoch in range(3):
    norms = []
    for step, (x_batch, y_batch) in enumerate(train_dataset):
        loss_value, norm = train_step(x_batch, y_batch)
        norms.append(float(norm))
    train_acc = float(train_acc_metric.result())
    mean_loss = float(train_loss.result())
    train_acc_metric.reset_state()
    train_loss.reset_state()
    for x_batch_val, y_batch_val in val_dataset:
        test_step(x_batch_val, y_batch_val)
    val_acc = float(val_acc_metric.result())
    val_acc_metric.reset_states()
    history.append((mean_loss, train_acc, val_acc, norms))
    print("epoch %d: steps %d" % (epoch, step + 1))

print("traces:", train_step.experimental_get_tracing_count(), test_step.experimental_get_tracing_count())

# numpy replay
W, b = w0.astype(np.float64), np.zeros(3)
ref = []
for epoch in range(3):
    losses, correct, norms = [], 0, []
    for i in range(0, 12, 4):
        xb, yb = x[i:i + 4].astype(np.float64), y[i:i + 4]
        z = xb @ W + b
        p = np.exp(z - z.max(1, keepdims=True)); p /= p.sum(1, keepdims=True)
        losses.append(-np.mean(np.log(p[np.arange(4), yb])))
        correct += np.sum(np.argmax(z, 1) == yb)
        d = p.copy(); d[np.arange(4), yb] -= 1; d /= 4
        gW, gb = xb.T @ d, d.sum(0)
        gn = np.sqrt(np.sum(gW ** 2) + np.sum(gb ** 2))
        norms.append(gn)
        scale = CLIP / max(gn, CLIP)
        W -= 0.5 * gW * scale; b -= 0.5 * gb * scale
    zv = x[:6] @ W + b
    ref.append((np.mean(losses), correct / 12, np.mean(np.argmax(zv, 1) == y[:6]), norms))

for (l, a, va, n), (rl, ra, rva, rn) in zip(history, ref):
    print("loss %.4f acc %.4f val_acc %.4f" % (l, a, va), np.allclose(l, rl, atol=1e-5), np.isclose(a, ra), np.isclose(va, rva),
          np.allclose(n, rn, rtol=1e-5))

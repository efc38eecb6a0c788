# "Writing a training loop from scratch": a functional Keras model, an
# optimizer, a loss object and metrics; train_step and test_step are
# tf.functions with the tape inside; metrics reset per epoch. One SGD step is
# checked against numpy's softmax cross-entropy gradient, and the metrics
# against an independent computation from the model's predictions.
import numpy as np
import autograph_cli.tf as tf
from autograph_cli.tf import keras

rng = np.random.default_rng(0)
x_train = rng.normal(size=(64, 6)).astype(np.float32)
true_w = rng.normal(size=(6, 3)).astype(np.float32)
y_train = np.argmax(x_train @ true_w, axis=1).astype(np.int64)
x_val, y_val = x_train[:16], y_train[:16]

inputs = keras.Input(shape=(6,), name="digits")
x1 = keras.layers.Dense(8, activation="relu")(inputs)
outputs = keras.layers.Dense(3, name="predictions")(x1)
model = keras.Model(inputs=inputs, outputs=outputs)

optimizer = keras.optimizers.SGD(learning_rate=0.1)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
val_acc_metric = keras.metrics.SparseCategoricalAccuracy()
train_loss = keras.metrics.Mean(name="train_loss")

train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(16)
val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(8)


def np_forward(ws, x):
    k1, b1, k2, b2 = ws
    h = np.maximum(x @ k1 + b1, 0)
    return h, h @ k2 + b2


def np_step(ws, x, y, lr):
    k1, b1, k2, b2 = ws
    h, logits = np_forward(ws, x)
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    loss = -np.log(p[np.arange(len(y)), y]).mean()
    d = p.copy()
    d[np.arange(len(y)), y] -= 1
    d /= len(y)
    gk2, gb2 = h.T @ d, d.sum(0)
    dh = (d @ k2.T) * (h > 0)
    gk1, gb1 = x.T @ dh, dh.sum(0)
    return loss, [k1 - lr * gk1, b1 - lr * gb1, k2 - lr * gk2, b2 - lr * gb2]


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    train_acc_metric.update_state(y, logits)
    train_loss.update_state(loss_value)
    return loss_value


@tf.function
def test_step(x, y):
    val_logits = model(x, training=False)
    val_acc_metric.update_state(y, val_logits)


ws = [w.numpy().astype(np.float64) for w in model.trainable_weights]
print([tuple(w.shape) for w in model.trainable_weights])
for epoch in range(3):
    np_losses, correct = [], 0
    tf_losses = []
    for step, (xb, yb) in enumerate(train_dataset):
        _, logits_before = np_forward(ws, xb.numpy().astype(np.float64))
        correct += int((logits_before.argmax(1) == yb.numpy()).sum())
        loss_np, ws = np_step(ws, xb.numpy().astype(np.float64), yb.numpy(), 0.1)
        tf_losses.append(float(train_step(xb, yb)))
        np_losses.append(loss_np)
    train_acc = float(train_acc_metric.result())
    for xb, yb in val_dataset:
        test_step(xb, yb)
    _, val_logits = np_forward(ws, x_val.astype(np.float64))
    val_acc = float(val_acc_metric.result())
    print(epoch, np.allclose(tf_losses, np_losses, rtol=1e-4, atol=1e-5),
          np.isclose(float(train_loss.result()), np.mean(np_losses), rtol=1e-4),
          np.isclose(train_acc, correct / 64), np.isclose(val_acc, (val_logits.argmax(1) == y_val).mean()))
    train_acc_metric.reset_state()
    val_acc_metric.reset_state()
    train_loss.reset_state()

print(all(np.allclose(w.numpy(), wn, rtol=1e-3, atol=1e-5) for w, wn in zip(model.trainable_weights, ws)))
print(train_step.experimental_get_tracing_count(), test_step.experimental_get_tracing_count(),
      int(optimizer.iterations), float(train_acc_metric.result()))

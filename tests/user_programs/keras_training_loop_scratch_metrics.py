""""Writing a training loop from scratch" (Keras): an eager loop over a Dataset, the same
step under tf.function with SparseCategoricalAccuracy metrics for training and validation
(result / reset_state each epoch), and add_loss losses summed into the step's loss.
Eager and tf.function loops are compared, and both against a numpy replay."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers

rng = np.random.default_rng(7)
x_train = rng.normal(size=(48, 4)).astype("float32")
y_train = np.argmax(x_train @ rng.normal(size=(4, 3)), axis=1).astype("int64")
x_val, y_val = x_train[:16], y_train[:16]


def get_model():
    inputs = keras.Input(shape=(4,), name="digits")
    outputs = layers.Dense(3, name="predictions", kernel_initializer="zeros")(inputs)
    return keras.Model(inputs=inputs, outputs=outputs)


loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
batch_size = 16
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(batch_size)
val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(batch_size)

model = get_model()
optimizer = keras.optimizers.SGD(learning_rate=0.5)
eager_losses = []
for epoch in range(2):
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        with tf.GradientTape() as tape:
            logits = model(x_batch_train, training=True)
            loss_value = loss_fn(y_batch_train, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        eager_losses.append(float(loss_value))
print("eager steps:", len(eager_losses), "iterations:", int(optimizer.iterations.numpy()))

W, b = np.zeros((4, 3)), np.zeros(3)
ref_losses, ref_acc = [], []
for epoch in range(2):
    correct = 0
    for i in range(0, 48, 16):
        xb, yb = x_train[i:i + 16].astype(np.float64), y_train[i:i + 16]
        z = xb @ W + b
        z = z - z.max(1, keepdims=True)
        p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
        ref_losses.append(-np.log(p[np.arange(16), yb]).mean())
        correct += (np.argmax(xb @ W + b, 1) == yb).sum()
        g = p.copy()
        g[np.arange(16), yb] -= 1
        g /= 16
        W, b = W - 0.5 * xb.T @ g, b - 0.5 * g.sum(0)
    ref_acc.append(correct / 48)
print("eager loop matches numpy:", bool(np.allclose(eager_losses, ref_losses, rtol=1e-4)))

model = get_model()
optimizer = keras.optimizers.SGD(learning_rate=0.5)
train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
val_acc_metric = keras.metrics.SparseCategoricalAccuracy()


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    train_acc_metric.update_state(y, logits)
    return loss_value


@tf.function
def test_step(x, y):
    val_logits = model(x, training=False)
    val_acc_metric.update_state(y, val_logits)


fn_losses, train_accs, val_accs = [], [], []
for epoch in range(2):
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        fn_losses.append(float(train_step(x_batch_train, y_batch_train)))
    train_accs.append(float(train_acc_metric.result()))
    train_acc_metric.reset_state()
    for x_batch_val, y_batch_val in val_dataset:
        test_step(x_batch_val, y_batch_val)
    val_accs.append(float(val_acc_metric.result()))
    val_acc_metric.reset_states()
print("tf.function loop = eager loop:", bool(np.allclose(fn_losses, eager_losses, rtol=1e-5)))
print("training accuracy per epoch matches numpy:", bool(np.allclose(train_accs, ref_acc)))
print("traced once each:", train_step.experimental_get_tracing_count(), test_step.experimental_get_tracing_count())
val_pred = np.argmax(x_val @ W + b, 1)
print("last validation accuracy matches numpy:", bool(np.isclose(val_accs[-1], (val_pred == y_val).mean())))


class ActivityRegularizationLayer(layers.Layer):
    def call(self, inputs):
        self.add_loss(1e-2 * tf.reduce_sum(inputs))
        return inputs


inputs = keras.Input(shape=(4,), name="digits")
x = layers.Dense(3, kernel_initializer="ones")(inputs)
x = ActivityRegularizationLayer()(x)
outputs = layers.Dense(3, name="predictions", kernel_initializer="zeros")(x)
model = keras.Model(inputs=inputs, outputs=outputs)
optimizer = keras.optimizers.SGD(learning_rate=0.1)


@tf.function
def train_step_reg(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
        loss_value += sum(model.losses)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss_value


xb, yb = x_train[:16], y_train[:16]
first = float(train_step_reg(xb, yb))
hidden = xb.astype(np.float64) @ np.ones((4, 3))
print("loss includes the activity penalty:", bool(np.isclose(first, np.log(3) + 1e-2 * hidden.sum(), rtol=1e-5)))
print("model.losses after the step:", len(model.losses))

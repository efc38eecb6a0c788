# "Custom training with tf.distribute.Strategy" on one device: a
# MirroredStrategy (one replica on this CPU) and the default strategy,
# per-example losses with Reduction.NONE averaged by
# tf.nn.compute_average_loss over the GLOBAL batch size (also the short last
# batch), a regularizer through tf.nn.scale_regularization_loss,
# strategy.run / strategy.reduce inside tf.function, a distributed dataset
# iterated in Python, with next(), and inside a tf.function (the epoch loop).
import numpy as np
import autograph_cli.tf as tf

strategy = tf.distribute.MirroredStrategy()
print("Number of devices: {}".format(strategy.num_replicas_in_sync))
default = tf.distribute.get_strategy()
print("default replicas:", default.num_replicas_in_sync, "has_strategy:", tf.distribute.has_strategy())

BATCH_SIZE_PER_REPLICA = 4
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
rng = np.random.RandomState(1)
x = rng.normal(size=(10, 3)).astype(np.float32)
y = (x[:, 0] > x[:, 1]).astype(np.int32)
train_dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH_SIZE)
train_dist_dataset = strategy.experimental_distribute_dataset(train_dataset)

W0 = np.array([[0.2, -0.1], [0.0, 0.3], [-0.2, 0.1]], np.float32)
with strategy.scope():
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                reduction=tf.keras.losses.Reduction.NONE)

    def compute_loss(labels, predictions, model_losses):
        per_example_loss = loss_object(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)
        if model_losses:
            loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
        return loss

    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(3,)),
        tf.keras.layers.Dense(2, kernel_initializer=tf.keras.initializers.Constant(W0),
                              kernel_regularizer=tf.keras.regularizers.L2(0.01)),
    ])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.3)


def train_step(inputs):
    images, labels = inputs
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        loss = compute_loss(labels, predictions, model.losses)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_accuracy.update_state(labels, predictions)
    return loss


print("element_spec:", train_dist_dataset.element_spec)


@tf.function(input_signature=[train_dist_dataset.element_spec])
def distributed_train_step(dataset_inputs):
    per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


@tf.function
def distributed_train_epoch(dataset):
    total_loss = 0.0
    num_batches = 0
    for batch in dataset:
        per_replica_losses = strategy.run(train_step, args=(batch,))
        total_loss += strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)
        num_batches += 1
    return total_loss / tf.cast(num_batches, dtype=tf.float32)


epoch_losses, accs = [], []
# epoch 1: Python loop over the distributed dataset
total_loss, num_batches = 0.0, 0
for batch in train_dist_dataset:
    total_loss += distributed_train_step(batch)
    num_batches += 1
epoch_losses.append(float(total_loss / num_batches))
accs.append(float(train_accuracy.result()))
train_accuracy.reset_state()
# epoch 2: next() on an iterator of it
iterator = iter(train_dist_dataset)
total_loss = 0.0
for _ in range(3):
    total_loss += distributed_train_step(next(iterator))
epoch_losses.append(float(total_loss / 3))
accs.append(float(train_accuracy.result()))
train_accuracy.reset_state()
# epoch 3: the whole epoch in one tf.function
epoch_losses.append(float(distributed_train_epoch(train_dist_dataset)))
accs.append(float(train_accuracy.result()))
print("local results:", [float(v) for v in strategy.experimental_local_results(tf.constant(2.5))])
print("traces:", distributed_train_step.experimental_get_tracing_count(),
      distributed_train_epoch.experimental_get_tracing_count())
print("losses:", [round(v, 5) for v in epoch_losses], "accuracy:", [round(a, 4) for a in accs])

# numpy
W, b = W0.astype(np.float64), np.zeros(2)
ref_losses, ref_accs = [], []
for epoch in range(3):
    total, correct = 0.0, 0
    for i in range(0, 10, 4):
        xb, yb = x[i:i + 4].astype(np.float64), y[i:i + 4]
        z = xb @ W + b
        p = np.exp(z - z.max(1, keepdims=True)); p /= p.sum(1, keepdims=True)
        n = len(yb)
        loss = -np.log(p[np.arange(n), yb]).sum() / GLOBAL_BATCH_SIZE + 0.01 * np.sum(W ** 2)
        total += loss
        correct += np.sum(np.argmax(z, 1) == yb)
        d = p.copy(); d[np.arange(n), yb] -= 1; d /= GLOBAL_BATCH_SIZE
        W, b = W - 0.3 * (xb.T @ d + 0.02 * W), b - 0.3 * d.sum(0)
    ref_losses.append(total / 3)
    ref_accs.append(correct / 10)
print("matches numpy:", np.allclose(epoch_losses, ref_losses, rtol=1e-5), np.allclose(accs, ref_accs),
      np.allclose(model.layers[0].kernel.numpy(), W, atol=1e-5))

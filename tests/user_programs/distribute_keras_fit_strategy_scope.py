# "Distributed training with Keras" on one CPU: a model, its optimizer and
# metrics created inside MirroredStrategy().scope(), compiled and fitted on a
# dataset batched by the global batch size (per-replica size times
# num_replicas_in_sync), evaluated, then a checkpoint of the model restored
# into a fresh model built outside the scope; the fit's losses checked
# against a custom loop of the same model in tf.function.
import os
import tempfile

import numpy as np
import autograph_cli.tf as tf

strategy = tf.distribute.MirroredStrategy()
print("Number of devices: {}".format(strategy.num_replicas_in_sync))
BATCH_SIZE = 4 * strategy.num_replicas_in_sync
rng = np.random.RandomState(2)
x = rng.normal(size=(16, 3)).astype(np.float32)
y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.1).astype(np.float32)
train_dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(BATCH_SIZE)


def make_model():
    return tf.keras.Sequential([
        tf.keras.Input(shape=(3,)),
        tf.keras.layers.Dense(1, kernel_initializer="zeros", bias_initializer="zeros"),
    ])


with strategy.scope():
    model = make_model()
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                  metrics=[tf.keras.metrics.MeanAbsoluteError()])
history = model.fit(train_dataset, epochs=3, verbose=0)
print("loss:", [round(v, 5) for v in history.history["loss"]])
print(sorted(history.history))
result = model.evaluate(train_dataset, verbose=0, return_dict=True)
print({k: round(v, 5) for k, v in sorted(result.items())})

ckpt_dir = tempfile.mkdtemp()
checkpoint = tf.train.Checkpoint(model=model)
path = checkpoint.save(os.path.join(ckpt_dir, "ckpt"))
restored = make_model()
tf.train.Checkpoint(model=restored).restore(path).assert_existing_objects_matched()
print("restored predictions equal:", np.allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0)))

# the same training as a custom loop
ref_model = make_model()
opt = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(ref_model(xb, training=True) - yb))
    grads = tape.gradient(loss, ref_model.trainable_variables)
    opt.apply_gradients(zip(grads, ref_model.trainable_variables))
    return loss


epoch_losses = []
for _ in range(3):
    losses = [float(step(xb, yb)) for xb, yb in train_dataset]
    epoch_losses.append(np.mean(losses))
print("fit equals the custom loop:", np.allclose(history.history["loss"], epoch_losses, rtol=1e-5),
      np.allclose(ref_model.layers[0].kernel.numpy(), model.layers[0].kernel.numpy(), atol=1e-6))

"""The "Transfer learning & fine-tuning" guide with its data augmentation, as a reader
writes it: a frozen base model called with training=False (BatchNorm in inference
mode), Rescaling / RandomFlip / RandomRotation in front, training the head, then
fine-tuning with the base unfrozen at a low learning rate; the summary's columns."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers

keras.utils.set_random_seed(1)
rng = np.random.default_rng(1)
images = rng.uniform(0, 255, size=(32, 12, 12, 3)).astype("float32")
labels = (images[:, :6].mean(axis=(1, 2, 3)) > images[:, 6:].mean(axis=(1, 2, 3))).astype("float32")

# a "pretrained" base: conv + batchnorm, trained briefly on another task
base_model = keras.Sequential([
    keras.Input((8, 8, 3)), layers.Conv2D(4, 3, activation="relu"), layers.BatchNormalization(),
    layers.GlobalAveragePooling2D()], name="base")
base_model.compile("adam", "mse")
base_model.fit(images[:, :8, :8] / 255.0, rng.normal(size=(32, 4)).astype("float32"), epochs=1, verbose=0)
bn = base_model.layers[1]
moving = [v.numpy().copy() for v in (bn.moving_mean, bn.moving_variance)]
# (not bn.non_trainable_weights: once the base is frozen that lists gamma and beta too, as in Keras)

base_model.trainable = False
print("frozen:", len(base_model.weights), len(base_model.trainable_weights), len(base_model.non_trainable_weights))

data_augmentation = keras.Sequential([layers.RandomFlip("horizontal"), layers.RandomRotation(0.1)],
                                     name="augment")
inputs = keras.Input(shape=(12, 12, 3))
x = data_augmentation(inputs)
x = layers.Resizing(8, 8)(x)
x = layers.Rescaling(1.0 / 255)(x)
x = base_model(x, training=False)
x = layers.Dropout(0.2)(x)
outputs = layers.Dense(1)(x)
model = keras.Model(inputs, outputs)
lines = []
model.summary(print_fn=lines.append)
print("\n".join(line.rstrip() for line in lines if line.startswith(" ") and line.strip()))

model.compile(optimizer=keras.optimizers.Adam(), loss=keras.losses.BinaryCrossentropy(from_logits=True),
              metrics=[keras.metrics.BinaryAccuracy()])
before = [w.numpy().copy() for w in base_model.weights]
history = model.fit(images, labels, epochs=3, batch_size=8, verbose=0)
print("epochs:", len(history.history["loss"]), "metrics:", sorted(history.history))
print("base unchanged while frozen:", all(np.array_equal(a, w.numpy()) for a, w in zip(before, base_model.weights)))
print("moving statistics unchanged:", all(np.array_equal(a, v.numpy()) for a, v in zip(moving, (bn.moving_mean, bn.moving_variance))))

# fine-tuning: unfreeze the base, keep it in inference mode, a low learning rate
base_model.trainable = True
print("unfrozen trainable weights:", len(model.trainable_weights))
model.compile(optimizer=keras.optimizers.Adam(1e-5), loss=keras.losses.BinaryCrossentropy(from_logits=True),
              metrics=[keras.metrics.BinaryAccuracy()])
kernel_before = base_model.layers[0].kernel.numpy().copy()
model.fit(images, labels, epochs=1, batch_size=8, verbose=0)
print("base kernel moved:", not np.array_equal(kernel_before, base_model.layers[0].kernel.numpy()))
print("moving statistics still unchanged (training=False):",
      all(np.array_equal(a, v.numpy()) for a, v in zip(moving, (bn.moving_mean, bn.moving_variance))))
p1, p2 = model.predict(images, verbose=0), model.predict(images, verbose=0)
print("inference is deterministic (augmentation off):", bool(np.array_equal(p1, p2)), p1.shape)

""""Transfer learning & fine-tuning": trainable vs non-trainable weights, freezing
recursively, fit leaving frozen weights alone, BatchNormalization with trainable=False
running in inference mode (moving statistics, not updated), the base model called with
training=False so its BatchNorm stays in inference mode while fine-tuning, recompiling."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers

layer = layers.Dense(3)
layer.build((None, 4))
print("weights:", len(layer.weights), "trainable_weights:", len(layer.trainable_weights),
      "non_trainable_weights:", len(layer.non_trainable_weights))
layer = layers.BatchNormalization()
layer.build((None, 4))
print("bn weights:", len(layer.weights), "trainable_weights:", len(layer.trainable_weights),
      "non_trainable_weights:", len(layer.non_trainable_weights))
print("bn names:", [w.name.split("/")[-1] for w in layer.weights])
layer = layers.Dense(3)
layer.build((None, 4))
layer.trainable = False
print("frozen dense:", len(layer.weights), len(layer.trainable_weights), len(layer.non_trainable_weights))

layer1 = layers.Dense(3, activation="relu")
layer2 = layers.Dense(3, activation="sigmoid")
model = keras.Sequential([keras.Input(shape=(3,)), layer1, layer2])
layer1.trainable = False
initial_layer1_weights_values = layer1.get_weights()
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.random((2, 3)), np.random.random((2, 3)), verbose=0)
final_layer1_weights_values = layer1.get_weights()
print("frozen layer unchanged by fit:", all(np.array_equal(a, b) for a, b in
                                             zip(initial_layer1_weights_values, final_layer1_weights_values)))

inner_model = keras.Sequential([keras.Input(shape=(3,)), layers.Dense(3, activation="relu"),
                                layers.Dense(3, activation="relu")])
model = keras.Sequential([keras.Input(shape=(3,)), inner_model, layers.Dense(3, activation="sigmoid")])
model.trainable = False
print("recursive freeze:", [l.trainable for l in inner_model.layers], len(model.trainable_weights))
model.trainable = True
print("unfrozen:", [l.trainable for l in inner_model.layers], len(model.trainable_weights))

rng = np.random.default_rng(0)
data = (rng.normal(size=(16, 4)) * 3 + 5).astype("float32")
bn = layers.BatchNormalization()
bn(data, training=True)  # one training call: moving stats move from (0, 1) by 1 - momentum
mm, mv = bn.moving_mean.numpy().copy(), bn.moving_variance.numpy().copy()
print("moving stats after one training call:", bool(np.allclose(mm, 0.01 * data.mean(0), rtol=1e-4)),
      bool(np.allclose(mv, 0.99 + 0.01 * data.var(0), rtol=1e-4)))
bn.trainable = False
frozen_out = bn(data, training=True).numpy()
ref = (data - mm) / np.sqrt(mv + 1e-3) * bn.gamma.numpy() + bn.beta.numpy()
print("frozen BN runs in inference mode:", bool(np.allclose(frozen_out, ref, atol=1e-4)),
      "stats kept:", bool(np.array_equal(bn.moving_mean.numpy(), mm)))

base_inputs = keras.Input(shape=(4,))
h = layers.Dense(4, kernel_initializer="identity")(base_inputs)
h = layers.BatchNormalization()(h)
base_model = keras.Model(base_inputs, h, name="base")
base_model.trainable = False
inputs = keras.Input(shape=(4,))
x = base_model(inputs, training=False)
outputs = layers.Dense(1)(x)
model = keras.Model(inputs, outputs)
model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
print("trainable with base frozen:", [w.name.split("/")[-1] for w in model.trainable_weights])
targets = rng.normal(size=(16, 1)).astype("float32")
base_before = [w.copy() for w in base_model.get_weights()]
model.fit(data, targets, epochs=2, verbose=0)
print("base untouched while frozen:", all(np.array_equal(a, b) for a, b in zip(base_before, base_model.get_weights())))

base_model.trainable = True
model.compile(optimizer=keras.optimizers.Adam(1e-5), loss="mse")
print("trainable after unfreezing:", len(model.trainable_weights))
bn_layer = base_model.layers[-1]
stats = (bn_layer.moving_mean.numpy().copy(), bn_layer.moving_variance.numpy().copy())
kernel = base_model.layers[1].kernel.numpy().copy()
model.fit(data, targets, epochs=1, verbose=0)
print("fine-tuning moves the base's kernel:", not np.array_equal(kernel, base_model.layers[1].kernel.numpy()))
print("training=False keeps BN statistics:", bool(np.array_equal(stats[0], bn_layer.moving_mean.numpy())),
      bool(np.array_equal(stats[1], bn_layer.moving_variance.numpy())))

""""Customizing what happens in fit()" (tf.keras 2 edition): train_step with
self.compiled_loss / self.compiled_metrics and a dict of every metric's result, a
test_step, sample weights, a model without compile(loss=...) whose metrics property lists
its own trackers, and a small GAN with two optimizers and its own compile(). Numbers are
checked against a numpy replay."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers


class CustomModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


rng = np.random.default_rng(1)
x = rng.random((40, 4)).astype("float32")
y = (x @ np.array([[1.0], [2.0], [-1.0], [0.5]], "float32")).astype("float32")
inputs = keras.Input(shape=(4,))
outputs = layers.Dense(1, kernel_initializer="zeros", kernel_regularizer=keras.regularizers.l2(0.01))(inputs)
model = CustomModel(inputs, outputs)
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
history = model.fit(x, y, epochs=3, batch_size=10, shuffle=False, verbose=0)
print("metrics:", [m.name for m in model.metrics], sorted(history.history))

w, b = np.zeros((4, 1)), 0.0
epoch_loss, epoch_mae = [], []
for epoch in range(3):
    losses, sizes, abs_sum = [], [], 0.0
    for i in range(0, 40, 10):
        xb, yb = x[i:i + 10].astype(np.float64), y[i:i + 10].astype(np.float64)
        err = xb @ w + b - yb
        losses.append((err ** 2).mean() + 0.01 * (w ** 2).sum())
        abs_sum += np.abs(err).sum()
        w = w - 0.1 * (2 * xb.T @ err / 10 + 0.02 * w)
        b = b - 0.1 * 2 * err.mean()
    epoch_loss.append(np.mean(losses))
    epoch_mae.append(abs_sum / 40)
print("loss with regularization matches numpy:", bool(np.allclose(history.history["loss"], epoch_loss, rtol=1e-4)))
print("mae matches numpy:", bool(np.allclose(history.history["mae"], epoch_mae, rtol=1e-4)))
ev = model.evaluate(x, y, verbose=0)
err = x @ w + b - y
print("evaluate:", len(ev), bool(np.allclose(ev, [(err ** 2).mean() + 0.01 * (w ** 2).sum(), np.abs(err).mean()],
                                              rtol=1e-4)))

loss_tracker = keras.metrics.Mean(name="loss")
mae_metric = keras.metrics.MeanAbsoluteError(name="mae")


class LowLevelModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = keras.losses.mean_squared_error(y, y_pred)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        loss_tracker.update_state(loss)
        mae_metric.update_state(y, y_pred)
        return {"loss": loss_tracker.result(), "mae": mae_metric.result()}

    @property
    def metrics(self):
        return [loss_tracker, mae_metric]


inputs = keras.Input(shape=(4,))
low = LowLevelModel(inputs, layers.Dense(1)(inputs))
low.compile(optimizer="adam")
h = low.fit(x, y, epochs=2, verbose=0)
print("low-level:", sorted(h.history), h.history["loss"][1] < h.history["loss"][0])
print("trackers reset per epoch (count = one epoch's samples):", int(loss_tracker.count.numpy()))

discriminator = keras.Sequential([keras.Input(shape=(6,)), layers.Dense(8), layers.LeakyReLU(alpha=0.2),
                                  layers.Dense(1)], name="discriminator")
latent_dim = 3
generator = keras.Sequential([keras.Input(shape=(latent_dim,)), layers.Dense(8), layers.LeakyReLU(alpha=0.2),
                              layers.Dense(6, activation="tanh")], name="generator")


class GAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.d_loss_tracker = keras.metrics.Mean(name="d_loss")
        self.g_loss_tracker = keras.metrics.Mean(name="g_loss")

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn

    @property
    def metrics(self):
        return [self.d_loss_tracker, self.g_loss_tracker]

    def train_step(self, real_images):
        if isinstance(real_images, tuple):
            real_images = real_images[0]
        batch_size = tf.shape(real_images)[0]
        random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))
        generated_images = self.generator(random_latent_vectors)
        combined_images = tf.concat([generated_images, real_images], axis=0)
        labels = tf.concat([tf.ones((batch_size, 1)), tf.zeros((batch_size, 1))], axis=0)
        labels += 0.05 * tf.random.uniform(tf.shape(labels))
        with tf.GradientTape() as tape:
            predictions = self.discriminator(combined_images)
            d_loss = self.loss_fn(labels, predictions)
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))
        random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))
        misleading_labels = tf.zeros((batch_size, 1))
        with tf.GradientTape() as tape:
            predictions = self.discriminator(self.generator(random_latent_vectors))
            g_loss = self.loss_fn(misleading_labels, predictions)
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))
        self.d_loss_tracker.update_state(d_loss)
        self.g_loss_tracker.update_state(g_loss)
        return {"d_loss": self.d_loss_tracker.result(), "g_loss": self.g_loss_tracker.result()}


gan = GAN(discriminator=discriminator, generator=generator, latent_dim=latent_dim)
gan.compile(d_optimizer=keras.optimizers.Adam(learning_rate=0.0003),
            g_optimizer=keras.optimizers.Adam(learning_rate=0.0003),
            loss_fn=keras.losses.BinaryCrossentropy(from_logits=True))
d_before = [v.numpy().copy() for v in discriminator.trainable_weights]
g_before = [v.numpy().copy() for v in generator.trainable_weights]
dataset = tf.data.Dataset.from_tensor_slices(rng.random((32, 6)).astype("float32")).batch(8)
gh = gan.fit(dataset, epochs=2, verbose=0)
print("gan:", sorted(gh.history), len(gh.history["d_loss"]), bool(np.isfinite(gh.history["g_loss"]).all()))
print("both networks trained:",
      all(not np.allclose(a, v.numpy()) for a, v in zip(d_before, discriminator.trainable_weights)),
      all(not np.allclose(a, v.numpy()) for a, v in zip(g_before, generator.trainable_weights)))
print("optimizer steps:", int(gan.d_optimizer.iterations.numpy()), int(gan.g_optimizer.iterations.numpy()))

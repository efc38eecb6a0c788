"""The end of "Making new layers and models via subclassing": a variational autoencoder
from a Sampling layer, an Encoder and a Decoder layer and a VAE Model whose KL divergence
goes in through add_loss; trained with a custom loop over a Dataset (model.losses summed in)
and with fit (compile's loss plus the added loss). The KL term is checked against numpy."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers


class Sampling(layers.Layer):
    """Uses (z_mean, z_log_var) to sample z, the vector encoding a digit."""

    def call(self, inputs):
        z_mean, z_log_var = inputs
        batch = tf.shape(z_mean)[0]
        dim = tf.shape(z_mean)[1]
        epsilon = tf.random.normal(shape=(batch, dim))
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon


class Encoder(layers.Layer):
    def __init__(self, latent_dim=4, intermediate_dim=8, name="encoder", **kwargs):
        super().__init__(name=name, **kwargs)
        self.dense_proj = layers.Dense(intermediate_dim, activation="relu")
        self.dense_mean = layers.Dense(latent_dim)
        self.dense_log_var = layers.Dense(latent_dim)
        self.sampling = Sampling()

    def call(self, inputs):
        x = self.dense_proj(inputs)
        z_mean = self.dense_mean(x)
        z_log_var = self.dense_log_var(x)
        z = self.sampling((z_mean, z_log_var))
        return z_mean, z_log_var, z


class Decoder(layers.Layer):
    def __init__(self, original_dim, intermediate_dim=8, name="decoder", **kwargs):
        super().__init__(name=name, **kwargs)
        self.dense_proj = layers.Dense(intermediate_dim, activation="relu")
        self.dense_output = layers.Dense(original_dim, activation="sigmoid")

    def call(self, inputs):
        x = self.dense_proj(inputs)
        return self.dense_output(x)


class VariationalAutoEncoder(keras.Model):
    def __init__(self, original_dim, intermediate_dim=8, latent_dim=4, name="autoencoder", **kwargs):
        super().__init__(name=name, **kwargs)
        self.original_dim = original_dim
        self.encoder = Encoder(latent_dim=latent_dim, intermediate_dim=intermediate_dim)
        self.decoder = Decoder(original_dim, intermediate_dim=intermediate_dim)

    def call(self, inputs):
        z_mean, z_log_var, z = self.encoder(inputs)
        reconstructed = self.decoder(z)
        kl_loss = -0.5 * tf.reduce_mean(z_log_var - tf.square(z_mean) - tf.exp(z_log_var) + 1)
        self.add_loss(kl_loss)
        return reconstructed


original_dim = 12
x_train = np.random.default_rng(0).random((64, original_dim)).astype("float32")
vae = VariationalAutoEncoder(original_dim, 8, 4)
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
mse_loss_fn = keras.losses.MeanSquaredError()
loss_metric = keras.metrics.Mean()
train_dataset = tf.data.Dataset.from_tensor_slices(x_train).shuffle(64, seed=1).batch(16)

losses = []
for epoch in range(2):
    for step, x_batch_train in enumerate(train_dataset):
        with tf.GradientTape() as tape:
            reconstructed = vae(x_batch_train)
            loss = mse_loss_fn(x_batch_train, reconstructed)
            loss += sum(vae.losses)
        grads = tape.gradient(loss, vae.trainable_weights)
        optimizer.apply_gradients(zip(grads, vae.trainable_weights))
        loss_metric(loss)
    losses.append(float(loss_metric.result()))
print("custom loop epochs:", len(losses), "finite:", bool(np.isfinite(losses).all()))
print("submodules:", [l.name for l in vae.layers], "trainable weights:", len(vae.trainable_weights))
print("one added loss per call:", len(vae.losses))

enc = vae.encoder
x = x_train[:5]
_ = vae(x)
h = np.maximum(x @ enc.dense_proj.kernel.numpy() + enc.dense_proj.bias.numpy(), 0)
mu = h @ enc.dense_mean.kernel.numpy() + enc.dense_mean.bias.numpy()
lv = h @ enc.dense_log_var.kernel.numpy() + enc.dense_log_var.bias.numpy()
kl = -0.5 * np.mean(lv - mu ** 2 - np.exp(lv) + 1)
print("KL term matches numpy:", bool(np.isclose(float(vae.losses[0]), kl, rtol=1e-4)))

vae = VariationalAutoEncoder(original_dim, 8, 4)
vae.compile(optimizer, loss=keras.losses.MeanSquaredError())
history = vae.fit(x_train, x_train, epochs=3, batch_size=16, verbose=0)
print("fit:", sorted(history.history), len(history.history["loss"]), bool(np.isfinite(history.history["loss"]).all()))
reconstruction = vae.predict(x_train[:3], verbose=0)
print("reconstruction:", reconstruction.shape, bool(((reconstruction > 0) & (reconstruction < 1)).all()))

class KLDivergenceLayer(layers.Layer):  # (a TensorFlow op cannot take Keras tensors: the loss goes in a layer)
    def call(self, inputs):
        z_mean, z_log_var = inputs
        self.add_loss(-0.5 * tf.reduce_mean(z_log_var - tf.square(z_mean) - tf.exp(z_log_var) + 1))
        return inputs


original_inputs = keras.Input(shape=(original_dim,), name="encoder_input")
x = layers.Dense(8, activation="relu")(original_inputs)
z_mean = layers.Dense(4, name="z_mean")(x)
z_log_var = layers.Dense(4, name="z_log_var")(x)
z_mean, z_log_var = KLDivergenceLayer()([z_mean, z_log_var])
z = Sampling()((z_mean, z_log_var))
encoder = keras.Model(inputs=original_inputs, outputs=z, name="encoder")
latent_inputs = keras.Input(shape=(4,), name="z_sampling")
x = layers.Dense(8, activation="relu")(latent_inputs)
outputs = layers.Dense(original_dim, activation="sigmoid")(x)
decoder = keras.Model(inputs=latent_inputs, outputs=outputs, name="decoder")
outputs = decoder(z)


vae = keras.Model(inputs=original_inputs, outputs=outputs, name="vae")
try:
    tf.square(z_mean)
except TypeError as e:
    print("tf op on a Keras tensor:", str(e).split(":")[0].split(" is ")[1])
print("functional VAE losses:", len(vae.losses))
vae.compile(keras.optimizers.Adam(learning_rate=1e-3), loss=keras.losses.MeanSquaredError())
h = vae.fit(x_train, x_train, epochs=2, batch_size=16, verbose=0)
print("functional VAE fit:", len(h.history["loss"]), bool(np.isfinite(h.history["loss"]).all()))

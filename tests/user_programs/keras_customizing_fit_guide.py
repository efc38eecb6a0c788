"""The "Customizing what happens in fit()" guide, as a reader writes it: a train_step
override with the tape inside (compute_loss, metrics the model tracks itself with
Mean trackers and a `metrics` property so they reset each epoch), a test_step
override for evaluate, sample weights unpacked in the step, and a low-level variant
without compile(loss=...). Numbers are checked against a numpy replay."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras

rng = np.random.default_rng(3)
x = rng.normal(size=(64, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype("float32")


class CustomModel(keras.Model):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = keras.losses.mean_squared_error(y, y_pred)
            loss = tf.reduce_mean(loss)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.loss_tracker.update_state(tf.reduce_mean(keras.losses.mean_squared_error(y, y_pred)))
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae_metric]


inputs = keras.Input(shape=(3,))
outputs = keras.layers.Dense(1, kernel_initializer="zeros")(inputs)
model = CustomModel(inputs, outputs)
model.compile(optimizer=keras.optimizers.SGD(0.1))
history = model.fit(x, y, epochs=3, batch_size=16, shuffle=False, verbose=0)

# numpy replay: per batch, MSE gradient step; the trackers average the batch losses of each epoch
w, b = np.zeros((3, 1)), 0.0
ref_loss, ref_mae = [], []
for epoch in range(3):
    losses, abs_err, count = [], 0.0, 0
    for i in range(0, 64, 16):
        xb, yb = x[i:i + 16].astype(np.float64), y[i:i + 16].astype(np.float64)
        pred = xb @ w + b
        err = pred - yb
        losses.append((err ** 2).mean())
        abs_err += np.abs(err).sum()
        count += err.size
        w -= 0.1 * 2 * xb.T @ err / err.size
        b -= 0.1 * 2 * err.mean()
    ref_loss.append(np.mean(losses))
    ref_mae.append(abs_err / count)
print("keys:", sorted(history.history))
print("loss per epoch matches numpy:", bool(np.allclose(history.history["loss"], ref_loss, rtol=1e-4)))
print("mae per epoch matches numpy:", bool(np.allclose(history.history["mae"], ref_mae, rtol=1e-4)))
result = model.evaluate(x, y, verbose=0, return_dict=True)
pred = x.astype(np.float64) @ w + b
print("evaluate keys:", sorted(result))
print("evaluate matches numpy:", bool(np.isclose(result["mae"], np.abs(pred - y).mean(), rtol=1e-4)))


class WeightedModel(keras.Model):
    def train_step(self, data):
        if len(data) == 3:
            x, y, sample_weight = data
        else:
            sample_weight = None
            x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred, sample_weight=sample_weight)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)
        return {m.name: m.result() for m in self.metrics}


inputs = keras.Input(shape=(3,))
model = WeightedModel(inputs, keras.layers.Dense(1)(inputs))
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
sw = rng.random((64, 1)).astype("float32")
h = model.fit(x, y, sample_weight=sw, epochs=2, verbose=0)
print("weighted keys:", sorted(h.history), "finite:", bool(np.isfinite(h.history["loss"]).all()))
print("loss decreased:", h.history["loss"][1] < h.history["loss"][0])

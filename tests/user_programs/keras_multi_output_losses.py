# A functional model with two named outputs: one loss for both, a list with
# loss_weights, a dict by output name (targets as a dict; evaluate lists the total
# and each output's unweighted loss, as tf.keras 2), trained with fit;
# and a tf.keras-2 style custom train_step using self.compiled_loss(...,
# regularization_losses=self.losses) and self.compiled_metrics.
import numpy as np
import autograph_cli.tf as tf

a = tf.keras.Input(shape=(2,), name="a")
b = tf.keras.Input(shape=(2,), name="b")
h = tf.keras.layers.Concatenate()([a, b])
price = tf.keras.layers.Dense(1, name="price", kernel_initializer="ones")(h)
score = tf.keras.layers.Dense(1, name="score", kernel_initializer="ones")(h)
model = tf.keras.Model({"a": a, "b": b}, [price, score])

x = {"a": np.ones((4, 2), np.float32), "b": np.ones((4, 2), np.float32)}
y_price, y_score = np.zeros((4, 1), np.float32), np.ones((4, 1), np.float32)
# both outputs predict 4: mse 16 and 9, mae 4 and 3
for loss, weights, targets in (("mse", None, [y_price, y_score]),
                               (["mse", "mae"], [1.0, 0.5], [y_price, y_score]),
                               ({"price": "mse", "score": "mae"}, {"score": 2.0}, {"price": y_price, "score": y_score})):
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss=loss, loss_weights=weights)
    print(loss, weights, model.evaluate(x, targets, verbose=0))

model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss={"price": "mse", "score": "mse"})
h = model.fit(x, {"price": y_price, "score": y_score}, epochs=5, batch_size=4, verbose=0)
print("multi-output fit decreases:", h.history["loss"][-1] < h.history["loss"][0])

class Keras2Style(tf.keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

inp = tf.keras.Input(shape=(2,))
out = tf.keras.layers.Dense(1, kernel_initializer="zeros")(inp)
m2 = Keras2Style(inp, out)
m2.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
xs = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]], np.float32)
ys = np.array([[1.0], [2.0], [3.0], [2.0]], np.float32)
h = m2.fit(xs, ys, epochs=3, batch_size=4, shuffle=False, verbose=0)
W, B, ref = np.zeros((2, 1)), np.zeros(1), []
for _ in range(3):
    r = xs @ W + B - ys
    ref.append(np.mean(r ** 2))
    g = 2 * r / 4
    W, B = W - 0.1 * xs.T @ g, B - 0.1 * g.sum(0)
print(sorted(h.history), "loss matches numpy:", np.allclose(h.history["loss"], ref, rtol=1e-5))

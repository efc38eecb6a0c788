# "Making new layers and models via subclassing" (part of the modules and
# layers guide): weights via add_weight, non-trainable weights, nested layers
# tracked automatically, add_loss in call, the training argument, layer
# freezing, get_config/from_config, and a custom training step using
# model.losses; numbers against numpy.
import numpy as np
import autograph_cli.tf as tf
from autograph_cli.tf import keras


class Linear(keras.layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", trainable=True, name="w")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True, name="b")

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


class ComputeSum(keras.layers.Layer):
    def __init__(self, input_dim):
        super().__init__()
        self.total = self.add_weight(initializer="zeros", shape=(input_dim,), trainable=False, name="total")

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total


x = tf.ones((2, 2))
my_sum = ComputeSum(2)
print(my_sum(x).numpy().tolist(), my_sum(x).numpy().tolist())
print(len(my_sum.weights), len(my_sum.non_trainable_weights), len(my_sum.trainable_weights))


class ActivityRegularizationLayer(keras.layers.Layer):
    def __init__(self, rate=1e-2):
        super().__init__()
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * tf.reduce_sum(inputs))
        return inputs


class MLPBlock(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.linear_1 = Linear(4)
        self.reg = ActivityRegularizationLayer(0.5)
        self.linear_2 = Linear(1)

    def call(self, inputs, training=None):
        x = tf.nn.relu(self.linear_1(inputs))
        x = self.reg(x)
        if training:
            x = x * 0.0 + x / 2.0
        return self.linear_2(x)


mlp = MLPBlock()
xin = np.array([[1.0, -2.0, 3.0]], np.float32)
y = mlp(xin)
print(len(mlp.weights), len(mlp.trainable_weights), float(y[0, 0]), float(mlp.losses[0]))
h = np.maximum(xin @ np.ones((3, 4)), 0)
print(np.isclose(float(y[0, 0]), (h @ np.ones((4, 1)))[0, 0]), np.isclose(float(mlp.losses[0]), 0.5 * h.sum()))
print(float(mlp(xin, training=True)[0, 0]), len(mlp.losses))

mlp.linear_1.trainable = False
print(len(mlp.trainable_weights), len(mlp.non_trainable_weights))
mlp.linear_1.trainable = True

layer = Linear(64)
config = layer.get_config()
new_layer = Linear.from_config(config)
print(config["units"], new_layer.units, type(new_layer).__name__)


class Model(keras.Model):
    def __init__(self):
        super().__init__()
        self.block = MLPBlock()

    def call(self, inputs, training=False):
        return self.block(inputs, training=training)


model = Model()
optimizer = keras.optimizers.SGD(learning_rate=0.01)
loss_fn = keras.losses.MeanSquaredError()
xb = np.array([[0.5, 1.0, -1.0], [2.0, 0.0, 1.0]], np.float32)
yb = np.array([[1.0], [2.0]], np.float32)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=False)
        loss = loss_fn(y, pred) + tf.add_n(model.losses)
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss


# numpy: loss = mean((relu(x W1 + b1) W2 + b2 - y)^2) + 0.5 * sum(relu(x W1 + b1))
W1, b1, W2, b2 = np.ones((3, 4)), np.zeros(4), np.ones((4, 1)), np.zeros(1)
for step in range(3):
    z = xb @ W1 + b1
    hb = np.maximum(z, 0)
    pred = hb @ W2 + b2
    loss_n = ((pred - yb) ** 2).mean() + 0.5 * hb.sum()
    d = 2 * (pred - yb) / pred.size
    gW2, gb2 = hb.T @ d, d.sum(0)
    dh = (d @ W2.T + 0.5) * (z > 0)
    gW1, gb1 = xb.T @ dh, dh.sum(0)
    W1, b1, W2, b2 = W1 - 0.01 * gW1, b1 - 0.01 * gb1, W2 - 0.01 * gW2, b2 - 0.01 * gb2
    print(np.isclose(float(train_step(xb, yb)), loss_n, rtol=1e-5))
print(np.allclose(model.block.linear_1.w.numpy(), W1, rtol=1e-5), np.allclose(model.block.linear_2.b.numpy(), b2, rtol=1e-5))

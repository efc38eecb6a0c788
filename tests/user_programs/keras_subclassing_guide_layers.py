""""Making new layers and models via subclassing": a Linear layer with add_weight and with
tf.Variable, a non-trainable accumulator, deferred build(), nested blocks tracked
recursively, add_loss (activity regularization, kernel_regularizer), a metric tracked by a
layer, an endpoint layer trained by fit without a compiled loss, get_config/from_config,
the training argument."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras


class Linear(keras.layers.Layer):
    def __init__(self, units=32, input_dim=32):
        super().__init__()
        self.w = self.add_weight(shape=(input_dim, units), initializer="random_normal", trainable=True)
        self.b = self.add_weight(shape=(units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


x = tf.ones((2, 2))
linear_layer = Linear(4, 2)
y = linear_layer(x)
print("linear:", y.shape, bool(np.allclose(y.numpy(), np.ones((2, 2)) @ linear_layer.w.numpy())))
print("weights are w and b:", linear_layer.weights == [linear_layer.w, linear_layer.b])


class LinearVar(keras.layers.Layer):
    def __init__(self, units=32, input_dim=32):
        super().__init__()
        w_init = tf.random_normal_initializer()
        self.w = tf.Variable(initial_value=w_init(shape=(input_dim, units), dtype="float32"), trainable=True)
        b_init = tf.zeros_initializer()
        self.b = tf.Variable(initial_value=b_init(shape=(units,), dtype="float32"), trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


print("tf.Variable attributes tracked:", len(LinearVar(4, 2).trainable_weights))


class ComputeSum(keras.layers.Layer):
    def __init__(self, input_dim):
        super().__init__()
        self.total = self.add_weight(initializer="zeros", shape=(input_dim,), trainable=False)

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total


my_sum = ComputeSum(2)
print(my_sum(x).numpy(), my_sum(x).numpy())
print("weights:", len(my_sum.weights), "non-trainable:", len(my_sum.non_trainable_weights),
      "trainable:", my_sum.trainable_weights)


class LinearDeferred(keras.layers.Layer):
    def __init__(self, units=32):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True)
        self.b = self.add_weight(shape=(self.units,), initializer="random_normal", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


linear_layer = LinearDeferred(32)
print("built before call:", linear_layer.built, len(linear_layer.weights))
y = linear_layer(tf.ones((2, 7)))
print("built after call:", linear_layer.built, [tuple(w.shape) for w in linear_layer.weights])


class MLPBlock(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.linear_1 = LinearDeferred(32)
        self.linear_2 = LinearDeferred(32)
        self.linear_3 = LinearDeferred(1)

    def call(self, inputs):
        x = self.linear_1(inputs)
        x = tf.nn.relu(x)
        x = self.linear_2(x)
        x = tf.nn.relu(x)
        return self.linear_3(x)


mlp = MLPBlock()
y = mlp(tf.ones(shape=(3, 64)))
print("weights:", len(mlp.weights), "trainable weights:", len(mlp.trainable_weights), y.shape)


class ActivityRegularizationLayer(keras.layers.Layer):
    def __init__(self, rate=1e-2):
        super().__init__()
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * tf.reduce_sum(inputs))
        return inputs


class OuterLayer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.activity_reg = ActivityRegularizationLayer(1e-2)

    def call(self, inputs):
        return self.activity_reg(inputs)


layer = OuterLayer()
print("losses before call:", len(layer.losses))
_ = layer(tf.zeros((1, 1)))
_ = layer(tf.ones((3, 2)))
print("losses after two calls:", len(layer.losses), round(float(layer.losses[0]), 6))


class OuterLayerWithKernelRegularizer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(3, kernel_regularizer=keras.regularizers.l2(1e-3),
                                        kernel_initializer="ones")

    def call(self, inputs):
        return self.dense(inputs)


layer = OuterLayerWithKernelRegularizer()
_ = layer(tf.zeros((1, 4)))
print("kernel regularization loss:", len(layer.losses), round(float(layer.losses[0]), 6))


class LogisticEndpoint(keras.layers.Layer):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
        self.accuracy_fn = keras.metrics.BinaryAccuracy()

    def call(self, targets, logits, sample_weights=None):
        loss = self.loss_fn(targets, logits, sample_weights)
        self.add_loss(loss)
        self.accuracy_fn.update_state(targets, logits, sample_weights)
        return tf.nn.softmax(logits)


layer = LogisticEndpoint()
targets = tf.ones((2, 2))
logits = tf.ones((2, 2))
y = layer(targets, logits)
print("layer.metrics:", layer.metrics)
print("current accuracy value:", float(layer.metrics[0].result()))

inputs = keras.Input(shape=(3,), name="inputs")
targets = keras.Input(shape=(10,), name="targets")
logits = keras.layers.Dense(10)(inputs)
predictions = LogisticEndpoint(name="predictions")(targets, logits)
model = keras.Model(inputs=[inputs, targets], outputs=predictions)
model.compile(optimizer="adam")
data = {"inputs": np.random.random((3, 3)), "targets": np.random.random((3, 10))}
h = model.fit(data, epochs=2, verbose=0)
print("endpoint fit:", sorted(h.history), bool(np.isfinite(h.history["loss"]).all()))


class LinearCfg(keras.layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True)
        self.b = self.add_weight(shape=(self.units,), initializer="random_normal", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


layer = LinearCfg(64, name="lin")
config = layer.get_config()
print("config:", config["name"], config["units"], config["trainable"], sorted(config)[:2])
new_layer = LinearCfg.from_config(config)
print("from_config:", type(new_layer).__name__, new_layer.units, new_layer.name)


class CustomDropout(keras.layers.Layer):
    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs, training=None):
        if training:
            return tf.nn.dropout(inputs, rate=self.rate)
        return inputs


drop = CustomDropout(0.5)
ones = tf.ones((100, 10))
print("inference keeps:", bool(np.all(drop(ones).numpy() == 1.0)))
trained = drop(ones, training=True).numpy()
print("training drops about half:", 0.35 < float((trained == 0).mean()) < 0.65, sorted(set(trained.ravel().tolist())))

inp = keras.Input(shape=(10,))
out = CustomDropout(0.5)(inp)
m = keras.Model(inp, out)
print("model passes training:", bool(np.all(m(ones, training=False).numpy() == 1.0)),
      bool((m(ones, training=True).numpy() == 0).any()))

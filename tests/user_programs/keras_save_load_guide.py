"""The "Save and load Keras models" guide, as a reader writes it: whole-model .keras files,
custom objects (registered, custom_objects=, custom_object_scope), get_config/from_config,
the config alone (to_json/model_from_json, clone), weights transfer, resumed training."""
import os
import tempfile

import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras

tmp = tempfile.mkdtemp()


def get_model():
    inputs = keras.Input(shape=(32,))
    outputs = keras.layers.Dense(1)(inputs)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(), loss="mean_squared_error")
    return model


rng = np.random.default_rng(0)
test_input = rng.random((128, 32)).astype("float32")
test_target = rng.random((128, 1)).astype("float32")

model = get_model()
model.fit(test_input, test_target, verbose=0)
path = os.path.join(tmp, "my_model.keras")
model.save(path)
reconstructed = keras.models.load_model(path)
np.testing.assert_allclose(model.predict(test_input, verbose=0), reconstructed.predict(test_input, verbose=0))
print("reconstructed predicts the same:", True)
print("optimizer:", type(reconstructed.optimizer).__name__, int(reconstructed.optimizer.iterations.numpy()))
# the reconstructed model is compiled and keeps the optimizer state: training continues identically
model.fit(test_input, test_target, verbose=0, shuffle=False)
reconstructed.fit(test_input, test_target, verbose=0, shuffle=False)
print("resumed training agrees:", bool(np.allclose(model.predict(test_input, verbose=0),
                                                    reconstructed.predict(test_input, verbose=0), atol=1e-6)))


@keras.saving.register_keras_serializable(package="MyLayers")
class CustomLayer(keras.layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor

    def get_config(self):
        return {"factor": self.factor}


@keras.saving.register_keras_serializable(package="my_package", name="custom_fn")
def custom_fn(x):
    return x ** 2


@keras.saving.register_keras_serializable()
class CustomModel(keras.Model):
    def __init__(self, hidden_units, **kwargs):
        super().__init__(**kwargs)
        self.hidden_units = hidden_units
        self.dense_layers = [keras.layers.Dense(u) for u in hidden_units]

    def call(self, inputs):
        x = inputs
        for layer in self.dense_layers:
            x = layer(x)
        return x

    def get_config(self):
        return {"hidden_units": self.hidden_units}


print("registered names:", keras.saving.get_registered_name(CustomLayer), keras.saving.get_registered_name(custom_fn))
model = keras.Sequential([keras.Input(shape=(3,)), CustomLayer(0.5), keras.layers.Dense(2, activation=custom_fn)])
model.compile(optimizer="rmsprop", loss="mean_squared_error")
model.save(os.path.join(tmp, "custom.keras"))
loaded = keras.models.load_model(os.path.join(tmp, "custom.keras"))
x = np.ones((2, 3), np.float32)
print("custom layer and activation:", type(loaded.layers[0]).__name__, loaded.layers[0].factor,
      loaded.layers[1].activation is custom_fn,
      bool(np.allclose(model.predict(x, verbose=0), loaded.predict(x, verbose=0))))

sub = CustomModel([16, 16, 10])
sub(tf.ones((1, 5)))
sub.save(os.path.join(tmp, "sub.keras"))
again = keras.models.load_model(os.path.join(tmp, "sub.keras"))
print("subclassed:", type(again).__name__, again.hidden_units, len(again.weights),
      bool(np.allclose(sub(tf.ones((1, 5))).numpy(), again(tf.ones((1, 5))).numpy())))


class Unregistered(keras.layers.Layer):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal")

    def call(self, x):
        return tf.matmul(x, self.w)

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


m = keras.Sequential([keras.Input((4,)), Unregistered(3)])
m.save(os.path.join(tmp, "unreg.keras"))
try:
    keras.models.load_model(os.path.join(tmp, "unreg.keras"))
except TypeError as e:
    print("without custom_objects:", str(e).split(".")[0])
with keras.saving.custom_object_scope({"Unregistered": Unregistered}):
    print("scope:", type(keras.models.load_model(os.path.join(tmp, "unreg.keras")).layers[0]).__name__)
print("custom_objects:", type(keras.models.load_model(os.path.join(tmp, "unreg.keras"),
                                                      custom_objects={"Unregistered": Unregistered}).layers[0]).__name__)

# the config alone
layer = keras.layers.Dense(3, activation="relu")
layer_config = layer.get_config()
new_layer = keras.layers.Dense.from_config(layer_config)
print("layer from config:", new_layer.units, new_layer.activation.__name__)
seq = keras.Sequential([keras.Input((32,)), keras.layers.Dense(1)])
config = seq.get_config()
new_seq = keras.Sequential.from_config(config)
print("sequential from config:", len(new_seq.layers), new_seq.layers[0].units, len(new_seq.weights))
json_config = get_model().to_json()
new_model = keras.models.model_from_json(json_config)
print("functional from json:", [type(la).__name__ for la in new_model.layers], new_model.output_shape)

# weights transfer between models of the same architecture
def create_layer():
    layer = keras.layers.Dense(64, activation="relu", name="dense_2")
    layer.build((None, 784))
    return layer


layer_1, layer_2 = create_layer(), create_layer()
layer_2.set_weights(layer_1.get_weights())
print("weights transferred:", all(np.array_equal(a, b) for a, b in zip(layer_1.get_weights(), layer_2.get_weights())))

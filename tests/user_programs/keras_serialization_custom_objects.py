""""Serialization and saving": get_config/from_config of Sequential and functional
models, to_json/model_from_json, get_weights/set_weights transfer, custom layers and
functions registered with keras.saving.register_keras_serializable or passed as
custom_objects / under custom_object_scope, a subclassed model saved and reloaded, and
optimizer state restored for resumed training."""
import os
import tempfile

import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers

tmp = tempfile.mkdtemp()
x = np.random.default_rng(0).random((8, 4)).astype("float32")
y = np.random.default_rng(1).random((8, 1)).astype("float32")

model = keras.Sequential([keras.Input(shape=(4,)), layers.Dense(3, activation="relu", name="d1"),
                          layers.Dense(1, name="d2")])
config = model.get_config()
new_model = keras.Sequential.from_config(config)
print("sequential from_config:", [l.name for l in new_model.layers], new_model.count_params())
json_config = model.to_json()
again = keras.models.model_from_json(json_config)
again.set_weights(model.get_weights())
print("from json, same weights:", bool(np.allclose(again.predict(x, verbose=0), model.predict(x, verbose=0))))

inputs = keras.Input((4,), name="in")
h = layers.Dense(3, name="hidden")(inputs)
outputs = layers.Dense(1, name="out")(h)
functional = keras.Model(inputs, outputs, name="func")
cfg = functional.get_config()
clone = keras.Model.from_config(cfg)
print("functional from_config:", clone.name, [l.name for l in clone.layers])


@keras.saving.register_keras_serializable(package="MyLayers")
class CustomLayer(keras.layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


@keras.saving.register_keras_serializable(package="my_package", name="custom_fn")
def custom_fn(x):
    return x ** 2


print("registered names:", keras.saving.get_registered_name(CustomLayer), keras.saving.get_registered_name(custom_fn))
print("registered object:", keras.saving.get_registered_object("MyLayers>CustomLayer") is CustomLayer)

inputs = keras.Input((4,))
h = CustomLayer(0.5)(inputs)
h = layers.Activation(custom_fn)(h)
outputs = layers.Dense(1)(h)
model = keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=2, verbose=0)
path = os.path.join(tmp, "custom.keras")
model.save(path)
reconstructed = keras.models.load_model(path)
print("registered objects reload:", bool(np.allclose(model.predict(x, verbose=0), reconstructed.predict(x, verbose=0),
                                                     atol=1e-6)))
print("optimizer state restored:", int(reconstructed.optimizer.iterations.numpy()) == int(model.optimizer.iterations.numpy()))
model.fit(x, y, epochs=1, verbose=0)
reconstructed.fit(x, y, epochs=1, verbose=0)
print("resumed training agrees:", bool(np.allclose(model.predict(x, verbose=0), reconstructed.predict(x, verbose=0),
                                                  atol=1e-5)))


class Unregistered(keras.layers.Layer):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", name="w")

    def call(self, x):
        return tf.matmul(x, self.w)

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


def unregistered_loss(y_true, y_pred):
    return tf.reduce_mean(tf.abs(y_true - y_pred), axis=-1)


inputs = keras.Input((4,))
model = keras.Model(inputs, Unregistered(1)(inputs))
model.compile(optimizer="sgd", loss=unregistered_loss)
model.fit(x, y, epochs=1, verbose=0)
path = os.path.join(tmp, "unregistered.keras")
model.save(path)
try:
    keras.models.load_model(path)
    print("load without custom_objects: no error")
except Exception as e:  # noqa: BLE001
    print("load without custom_objects:", type(e).__name__)
loaded = keras.models.load_model(path, custom_objects={"Unregistered": Unregistered,
                                                       "unregistered_loss": unregistered_loss})
print("custom_objects:", bool(np.allclose(loaded(x).numpy(), model(x).numpy())))
with keras.saving.custom_object_scope({"Unregistered": Unregistered, "unregistered_loss": unregistered_loss}):
    scoped = keras.models.load_model(path)
print("custom_object_scope:", type(scoped.layers[-1]).__name__, bool(np.allclose(scoped(x).numpy(), model(x).numpy())))


@keras.saving.register_keras_serializable()
class MyModel(keras.Model):
    def __init__(self, hidden_units, **kwargs):
        super().__init__(**kwargs)
        self.hidden_units = hidden_units
        self.dense_layers = [layers.Dense(u) for u in hidden_units]

    def call(self, inputs):
        x = inputs
        for layer in self.dense_layers:
            x = layer(x)
        return x

    def get_config(self):
        return {"hidden_units": self.hidden_units}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


model = MyModel([16, 16, 1])
_ = model(tf.ones((1, 4)))
path = os.path.join(tmp, "subclassed.keras")
model.save(path)
loaded = keras.models.load_model(path)
print("subclassed model:", type(loaded).__name__, loaded.hidden_units,
      bool(np.allclose(loaded(x).numpy(), model(x).numpy(), atol=1e-6)))

weights_path = os.path.join(tmp, "model.weights.h5")
model.save_weights(weights_path)
fresh = MyModel([16, 16, 1])
fresh(tf.ones((1, 4)))
fresh.load_weights(weights_path)
print("weights file:", bool(np.allclose(fresh(x).numpy(), model(x).numpy(), atol=1e-6)))
serialized = keras.saving.serialize_keras_object(keras.optimizers.Adam(learning_rate=0.01))
print("serialized optimizer:", serialized["class_name"], round(serialized["config"]["learning_rate"], 6))
opt = keras.saving.deserialize_keras_object(serialized)
print("deserialized:", type(opt).__name__, round(float(opt.learning_rate), 6))

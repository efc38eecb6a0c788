"""Whole-model saving ("Save and load Keras models"): model.save / keras.models.load_model of
Sequential, functional and subclassed models (custom objects, get_config/from_config), the
compile state and optimizer state carried over, and weight constraints."""
import json
import os
import zipfile

import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras
RNG = np.random.default_rng(7)
X = RNG.normal(size=(48, 6)).astype("float32")
Y = (X[:, 0] + X[:, 1] > 0).astype("int64")


def _same_predictions(a, b, x=X):
    np.testing.assert_allclose(a.predict(x, verbose=0), b.predict(x, verbose=0), rtol=1e-6, atol=1e-6)


def test_sequential_round_trip_keeps_weights_compile_and_optimizer_state(tmp_path):
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.Dense(2)])
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    model.fit(X, Y, epochs=2, batch_size=16, verbose=0)
    path = str(tmp_path / "model.keras")
    model.save(path)
    assert zipfile.is_zipfile(path)
    with zipfile.ZipFile(path) as z:
        assert {"config.json", "metadata.json", "model.weights.npz"} <= set(z.namelist())
    loaded = keras.models.load_model(path)
    assert isinstance(loaded, keras.Sequential)
    assert [type(la).__name__ for la in loaded.layers] == ["Dense", "BatchNormalization", "Dense"]
    assert loaded.layers[0].activation is keras.activations.relu
    _same_predictions(model, loaded)
    assert isinstance(loaded.optimizer, keras.optimizers.Adam)
    assert int(loaded.optimizer.iterations.numpy()) == int(model.optimizer.iterations.numpy()) == 6
    # the optimizer's moments came along: one more epoch on both gives the same weights
    model.fit(X, Y, epochs=1, batch_size=16, verbose=0, shuffle=False)
    loaded.fit(X, Y, epochs=1, batch_size=16, verbose=0, shuffle=False)
    _same_predictions(model, loaded)
    assert model.evaluate(X, Y, verbose=0, return_dict=True) == pytest.approx(
        loaded.evaluate(X, Y, verbose=0, return_dict=True))


def test_sequential_built_by_fit_and_saved_uncompiled(tmp_path):
    model = keras.Sequential([keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
    model(X[:2])  # built by a call, no input shape given
    path = str(tmp_path / "m.keras")
    keras.models.save_model(model, path)
    loaded = keras.models.load_model(path)
    assert loaded.optimizer is None
    _same_predictions(model, loaded)


def test_functional_model_with_operators_slices_and_shared_layer(tmp_path):
    inp = keras.Input((6,), name="features")
    shared = keras.layers.Dense(6, activation="tanh", name="shared")
    h = shared(inp)
    h2 = shared(h * 0.5 + inp[:, :6])
    out_a = keras.layers.Dense(1, name="a")(keras.layers.Concatenate()([h, h2]))
    out_b = keras.layers.Dense(3, activation="softmax", name="b")(h2)
    model = keras.Model(inp, [out_a, out_b], name="two_heads")
    model.compile("sgd", loss=["mse", "sparse_categorical_crossentropy"])
    path = str(tmp_path / "f.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert loaded.name == "two_heads"
    assert [la.name for la in loaded.layers][:2] == ["features", "shared"]
    assert len(loaded.weights) == len(model.weights) == 6  # the shared layer's weights once
    for a, b in zip(model.predict(X, verbose=0), loaded.predict(X, verbose=0)):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    # the functional config alone (to_json / model_from_json) rebuilds the same architecture
    again = keras.models.model_from_json(model.to_json())
    assert [la.name for la in again.layers] == [la.name for la in model.layers]
    assert again.output_shape == model.output_shape


def test_functional_dict_inputs(tmp_path):
    a, b = keras.Input((2,), name="a"), keras.Input((3,), name="b")
    out = keras.layers.Dense(1)(keras.layers.Concatenate()([a, b]))
    model = keras.Model({"a": a, "b": b}, out)
    data = {"a": X[:, :2], "b": X[:, 2:5]}
    model.save(str(tmp_path / "d.keras"))
    loaded = keras.models.load_model(str(tmp_path / "d.keras"))
    np.testing.assert_allclose(model.predict(data, verbose=0), loaded.predict(data, verbose=0), rtol=1e-6)


@keras.saving.register_keras_serializable(package="tests")
class Scaled(keras.layers.Layer):
    """A custom layer with get_config (its constructor argument) and a weight made in build."""

    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(input_shape[-1],), initializer="ones")

    def call(self, x):
        return x * self.w * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


class Residual(keras.Model):
    """A subclassed model without get_config: saved with its constructor's arguments."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.inner = keras.layers.Dense(units, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, x, training=None):
        return self.out(self.inner(x) + x[:, :self.units])


def test_custom_layer_registered_and_subclassed_model_via_custom_objects(tmp_path):
    seq = keras.Sequential([keras.Input((6,)), Scaled(3.0), keras.layers.Dense(2)])
    seq.layers[0].w.assign(np.arange(6, dtype=np.float32))
    seq.save(str(tmp_path / "s.keras"))
    loaded = keras.models.load_model(str(tmp_path / "s.keras"))  # registered: no custom_objects needed
    assert isinstance(loaded.layers[0], Scaled) and loaded.layers[0].factor == 3.0
    _same_predictions(seq, loaded)

    model = Residual(4)
    model.compile(keras.optimizers.SGD(0.05, momentum=0.9), "mse")
    model.fit(X, Y.astype("float32"), epochs=1, verbose=0)
    path = str(tmp_path / "r.keras")
    model.save(path)
    with pytest.raises(TypeError, match="Could not locate class or function 'Residual'"):
        keras.models.load_model(path)
    loaded = keras.models.load_model(path, custom_objects={"Residual": Residual})
    assert isinstance(loaded, Residual) and loaded.units == 4
    assert loaded.optimizer.get_config()["learning_rate"] == 0.05
    _same_predictions(model, loaded)
    with keras.saving.custom_object_scope({"Residual": Residual}):
        _same_predictions(model, keras.models.load_model(path, compile=False))


def test_serialize_deserialize_objects():
    ser = keras.saving.serialize_keras_object(keras.layers.Dense(3, kernel_regularizer=keras.regularizers.L2(0.1),
                                                                 kernel_initializer=keras.initializers.RandomNormal(
                                                                     stddev=0.5)))
    json.dumps(ser)
    layer = keras.saving.deserialize_keras_object(ser)
    assert isinstance(layer, keras.layers.Dense) and layer.units == 3
    assert isinstance(layer.kernel_initializer, keras.initializers.RandomNormal)
    assert layer.kernel_initializer.stddev == 0.5
    assert layer.kernel_regularizer.l2 == pytest.approx(0.1)
    opt = keras.saving.deserialize_keras_object(keras.saving.serialize_keras_object(
        keras.optimizers.Adam(0.003, beta_1=0.8)))
    assert opt.beta_1 == 0.8 and float(opt.learning_rate.numpy()) == pytest.approx(0.003)


def test_a_lambda_cannot_be_saved(tmp_path):
    model = keras.Sequential([keras.Input((6,)), keras.layers.Lambda(lambda t: t * 2)])
    with pytest.raises(ValueError, match="A lambda cannot be saved"):
        model.save(str(tmp_path / "l.keras"))


def test_load_model_of_a_missing_or_foreign_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        keras.models.load_model(str(tmp_path / "nope.keras"))
    p = tmp_path / "bad.keras"
    p.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a Keras model file"):
        keras.models.load_model(str(p))


def test_save_to_a_directory_path(tmp_path):
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(2)])
    path = str(tmp_path / "saved_model_dir")
    model.save(path)
    assert os.path.isdir(path)
    _same_predictions(model, keras.models.load_model(path))
    # as tf.keras 2's model.save(directory): a SavedModel too, served without the model's code
    served = tf.saved_model.load(path)
    np.testing.assert_allclose(served(X).numpy(), model.predict(X, verbose=0), rtol=1e-6)
    assert "serving_default" in served.signatures


# constraints -------------------------------------------------------------------------------
def test_constraints_project_weights_after_each_update():
    w = RNG.normal(size=(4, 3)).astype("float32") * 3
    eps = 1e-7
    norms = np.sqrt((w * w).sum(0, keepdims=True))
    np.testing.assert_allclose(keras.constraints.MaxNorm(2.0)(tf.constant(w)).numpy(),
                               w * np.minimum(norms, 2.0) / (eps + norms), rtol=1e-6)
    np.testing.assert_allclose(keras.constraints.NonNeg()(tf.constant(w)).numpy(), np.where(w >= 0, w, 0))
    np.testing.assert_allclose(keras.constraints.UnitNorm(axis=1)(tf.constant(w)).numpy(),
                               w / (eps + np.sqrt((w * w).sum(1, keepdims=True))), rtol=1e-6)
    mm = keras.constraints.MinMaxNorm(min_value=1.0, max_value=1.5, rate=0.5)(tf.constant(w)).numpy()
    desired = 0.5 * np.clip(norms, 1.0, 1.5) + 0.5 * norms
    np.testing.assert_allclose(mm, w * desired / (eps + norms), rtol=1e-6)

    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(5, kernel_constraint=keras.constraints.MaxNorm(0.5),
                                                                    bias_constraint="non_neg"),
                              keras.layers.Dense(1)])
    model.compile(keras.optimizers.SGD(0.5), "mse")
    model.fit(X, X[:, :1] * 10, epochs=2, verbose=0)
    dense = model.layers[0]
    assert np.sqrt((dense.kernel.numpy() ** 2).sum(0)).max() <= 0.5 + 1e-5
    assert dense.bias.numpy().min() >= 0.0
    assert dense.kernel.constraint.max_value == 0.5


def test_add_weight_constraint_in_a_custom_layer():
    class Positive(keras.layers.Layer):
        def build(self, input_shape):
            self.scale = self.add_weight(name="scale", shape=(input_shape[-1],), initializer="ones",
                                         constraint=keras.constraints.NonNeg())

        def call(self, x):
            return x * self.scale

    layer = Positive()
    opt = keras.optimizers.SGD(10.0)
    x = tf.constant(np.abs(X[:, :3]) + 0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x))
    opt.apply_gradients(zip(tape.gradient(loss, layer.trainable_weights), layer.trainable_weights))
    np.testing.assert_array_equal(layer.scale.numpy(), [0.0, 0.0, 0.0])  # pushed below zero, projected back

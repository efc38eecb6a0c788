"""Weight and activity regularizers: their penalties in `layer.losses`
(fresh at each access), in fit's loss, and the subclassing guide's pattern."""
import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras
RNG = np.random.default_rng(4)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def test_regularizer_values():
    w = _x(3, 4)
    R = keras.regularizers
    assert np.isclose(float(R.L2(0.1)(tf.constant(w))), 0.1 * (w ** 2).sum(), rtol=1e-5)
    assert np.isclose(float(R.L1()(tf.constant(w))), 0.01 * np.abs(w).sum(), rtol=1e-5)
    assert np.isclose(float(R.l1_l2(0.1, 0.2)(tf.constant(w))), 0.1 * np.abs(w).sum() + 0.2 * (w ** 2).sum(),
                      rtol=1e-5)
    assert isinstance(R.get("l2"), R.L2) and R.get("l2").l2 == 0.01 and R.get(None) is None
    assert R.get({"class_name": "L1", "config": {"l1": 0.5}}).l1 == 0.5
    with pytest.raises(ValueError, match="regularizer identifier"):
        R.get("l3")


def test_kernel_and_activity_penalties_are_layer_losses():
    dense = keras.layers.Dense(3, kernel_regularizer=keras.regularizers.l2(1e-2), bias_regularizer="l1",
                               activity_regularizer=keras.regularizers.L1(0.1))
    assert dense.losses == []
    x = _x(4, 2)
    y = dense(x).numpy()
    k = dense.kernel.numpy()
    # as tf.keras orders them: the call's activity penalty (divided by the
    # batch size), then the weights' penalties in creation order
    losses = [float(v) for v in dense.losses]
    np.testing.assert_allclose(losses, [0.1 * np.abs(y).sum() / 4, 1e-2 * (k ** 2).sum(), 0.0], rtol=1e-5, atol=1e-7)
    dense.kernel.assign(k * 2)  # weight penalties are computed at each access
    assert np.isclose(float(dense.losses[1]), 1e-2 * (4 * k ** 2).sum(), rtol=1e-5)
    for layer in (keras.layers.Conv2D(2, 3, kernel_regularizer="l2"), keras.layers.Conv1D(2, 3, kernel_regularizer="l2"),
                  keras.layers.Embedding(5, 2, embeddings_regularizer="l2"),
                  keras.layers.LSTM(2, kernel_regularizer="l2", recurrent_regularizer="l2")):
        shape = {"Conv2D": (1, 5, 5, 2), "Conv1D": (1, 5, 2), "Embedding": (1, 3), "LSTM": (1, 3, 2)}[
            type(layer).__name__]
        layer(np.zeros(shape, np.float32) if type(layer).__name__ != "Embedding" else np.zeros(shape, np.int32))
        n = 2 if type(layer).__name__ == "LSTM" else 1
        assert len(layer.losses) == n, type(layer).__name__
    with pytest.raises(ValueError, match="Could not interpret constraint identifier"):
        keras.layers.Dense(2, kernel_constraint=object())


def test_subclassing_guide_outer_layer_with_kernel_regularizer():
    class OuterLayerWithKernelRegularizer(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(32, kernel_regularizer=keras.regularizers.l2(1e-3))

        def call(self, inputs):
            return self.dense(inputs)

    layer = OuterLayerWithKernelRegularizer()
    layer(tf.zeros((1, 1)))
    assert len(layer.losses) == 1
    assert np.isclose(float(layer.losses[0]), 1e-3 * (layer.dense.kernel.numpy() ** 2).sum(), rtol=1e-5)


def test_fit_minimises_the_loss_plus_the_penalties():
    keras.utils.set_random_seed(1)
    x = _x(64, 3)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32)

    def train(reg):
        model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1, kernel_regularizer=reg)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        model.fit(x, y, epochs=30, batch_size=64, verbose=0)
        return model

    plain, shrunk = train(None), train(keras.regularizers.l2(1.0))
    kp, ks = plain.layers[0].kernel.numpy().ravel(), shrunk.layers[0].kernel.numpy().ravel()
    np.testing.assert_allclose(kp, [1.0, -2.0, 0.5], atol=0.05)
    # with the penalty the weights shrink towards zero: the reported loss includes it
    assert np.abs(ks).sum() < 0.8 * np.abs(kp).sum()
    ev = shrunk.evaluate(x, y, verbose=0)
    mse = float(np.mean((shrunk.predict(x, verbose=0) - y) ** 2))
    assert np.isclose(ev, mse + (ks ** 2).sum(), rtol=1e-4)

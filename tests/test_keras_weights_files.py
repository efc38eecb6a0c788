"""Model.save_weights / load_weights (checkpoint prefix or one .h5 file) and
the ModelCheckpoint callback, as the "save and load" tutorial uses them."""
import os

import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras
RNG = np.random.default_rng(9)


def _model():
    return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(8, activation="relu"),
                             keras.layers.Dense(2)])


def _data():
    x = RNG.standard_normal((32, 4)).astype(np.float32)
    return x, (x[:, :2] * 2).astype(np.float32)


@pytest.mark.parametrize("name", ["weights/ckpt", "model.weights.h5"])
def test_save_weights_then_load_into_a_fresh_model(tmp_path, name):
    x, y = _data()
    model = _model()
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=2, verbose=0)
    path = str(tmp_path / name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    model.save_weights(path)
    fresh = _model()
    assert not np.allclose(fresh.predict(x, verbose=0), model.predict(x, verbose=0))
    fresh.load_weights(path)
    np.testing.assert_allclose(fresh.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-6)
    if name.endswith(".h5"):
        assert os.path.isfile(path)
    else:
        assert tf.train.latest_checkpoint(os.path.dirname(path)) == path


def test_checkpoint_weights_restore_into_a_subclassed_model_built_later(tmp_path):
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(3)

        def call(self, x):
            return self.d(x)

    x, _ = _data()
    a = Net()
    a(x)
    a.save_weights(str(tmp_path / "net"))
    b = Net()
    b.load_weights(str(tmp_path / "net"))  # not built yet: restored when it is
    np.testing.assert_allclose(b(x).numpy(), a(x).numpy(), atol=1e-6)
    with pytest.raises(ValueError, match="has not created its variables"):
        Net().load_weights(str(tmp_path / "x.h5"))


def test_model_checkpoint_callback_saves_each_epoch_or_the_best(tmp_path, capsys):
    x, y = _data()
    model = _model()
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    every = keras.callbacks.ModelCheckpoint(str(tmp_path / "cp-{epoch:02d}.weights.h5"), save_weights_only=True)
    best = keras.callbacks.ModelCheckpoint(str(tmp_path / "best" / "ckpt"), monitor="loss", save_best_only=True,
                                           save_weights_only=True, verbose=1)
    hist = model.fit(x, y, epochs=3, verbose=0, callbacks=[every, best])
    assert sorted(os.listdir(tmp_path)) == ["best", "cp-01.weights.h5", "cp-02.weights.h5", "cp-03.weights.h5"]
    out = capsys.readouterr().out
    assert "Epoch 1: loss improved from inf to" in out and "saving model to" in out
    losses = hist.history["loss"]
    assert best.best == min(losses)
    restored = _model()
    restored.load_weights(tf.train.latest_checkpoint(str(tmp_path / "best")))
    if losses[-1] == min(losses):
        np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-6)
    # without save_weights_only the whole model is saved (model.save), loadable on its own
    whole = str(tmp_path / "whole.keras")
    model.fit(x, y, epochs=1, verbose=0, callbacks=[keras.callbacks.ModelCheckpoint(whole)])
    np.testing.assert_allclose(keras.models.load_model(whole).predict(x, verbose=0), model.predict(x, verbose=0),
                               atol=1e-6)


def test_csv_logger_writes_a_row_per_epoch(tmp_path):
    x, y = _data()
    model = _model()
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    path = tmp_path / "log.csv"
    hist = model.fit(x, y, epochs=3, verbose=0, validation_data=(x, y),
                     callbacks=[keras.callbacks.CSVLogger(str(path))])
    lines = path.read_text().splitlines()
    assert lines[0] == "epoch,loss,mae,val_loss,val_mae" and len(lines) == 4
    assert np.isclose(float(lines[3].split(",")[1]), hist.history["loss"][2], rtol=1e-6)
    model.fit(x, y, epochs=1, verbose=0, callbacks=[keras.callbacks.CSVLogger(str(path), append=True)])
    assert len(path.read_text().splitlines()) == 5

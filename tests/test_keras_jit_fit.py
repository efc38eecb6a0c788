"""compile(jit_compile=True): fit/evaluate/predict steps compiled with XLA (the JAX
backend) give the numpy runtime's numbers (differential, several architectures);
a model whose step XLA cannot compile yet says which op."""
import numpy as np
import pytest

import autograph_cli.tf as tf

pytest.importorskip("jax")
keras = tf.keras
L = keras.layers
RNG = np.random.default_rng(0)
Y = RNG.integers(0, 2, size=16)


def _functional_attention():
    inp = keras.Input((4, 6))
    h = L.MultiHeadAttention(2, 3)(inp, inp)
    return keras.Model(inp, L.Dense(2)(L.Flatten()(h)))


CASES = {
    "conv_batchnorm": (lambda: keras.Sequential([keras.Input((6, 6, 2)), L.Conv2D(3, 3, activation="relu"),
                                                 L.BatchNormalization(), L.MaxPooling2D(), L.Flatten(), L.Dense(2)]),
                       (16, 6, 6, 2)),
    "constraint_regularizer_layernorm": (lambda: keras.Sequential([
        keras.Input((4,)), L.Dense(8, kernel_constraint=keras.constraints.MaxNorm(1.0)), L.LayerNormalization(),
        L.Dense(2, kernel_regularizer="l2")]), (16, 4)),
    "attention": (_functional_attention, (16, 4, 6)),
    "resizing": (lambda: keras.Sequential([keras.Input((6, 6, 1)), L.Resizing(4, 4), L.CenterCrop(3, 3), L.Flatten(),
                                           L.Dense(2)]), (16, 6, 6, 1)),
}


def _train(make, x, jit):
    keras.utils.set_random_seed(0)
    model = make()
    model.compile(keras.optimizers.Nadam(0.01), keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"], jit_compile=jit)
    history = model.fit(x, Y, epochs=2, batch_size=8, shuffle=False, verbose=0, validation_split=0.25)
    return model, history.history, model.predict(x, verbose=0), model.evaluate(x, Y, verbose=0, return_dict=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_fit_with_jit_compile_agrees_with_the_numpy_runtime(name):
    make, shape = CASES[name]
    x = RNG.normal(size=shape).astype("float32")
    plain_model, plain, plain_pred, plain_eval = _train(make, x, False)
    jit_model, jit, jit_pred, jit_eval = _train(make, x, True)
    assert jit_model.jit_compile and not plain_model.jit_compile
    assert sorted(plain) == sorted(jit)
    for key in plain:
        np.testing.assert_allclose(jit[key], plain[key], rtol=1e-4, atol=1e-6, err_msg=key)
    np.testing.assert_allclose(jit_pred, plain_pred, rtol=1e-4, atol=1e-5)
    assert jit_eval == pytest.approx(plain_eval, rel=1e-4, abs=1e-6)


def test_a_step_xla_cannot_compile_names_the_op():
    # a layer drawing from the stateful generator (Keras' own Dropout draws statelessly under XLA)
    model = keras.Sequential([keras.Input((5,)), L.Lambda(lambda t: t + tf.random.uniform(tf.shape(t))), L.Dense(2)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True), jit_compile=True)
    with pytest.raises(Exception, match="cannot be compiled with jit_compile=True: op 'RandomUniform"):
        model.fit(RNG.normal(size=(16, 5)).astype("float32"), Y, epochs=1, verbose=0)


class _MinimalCell(L.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), name="recurrent_kernel")

    def call(self, inputs, states):
        h = tf.tanh(tf.matmul(inputs, self.kernel) + tf.matmul(states[0], self.recurrent_kernel))
        return h, [h]


RECURRENT = {  # the gradient through the time loop (staged for loop over the known number of steps)
    "lstm": lambda: keras.Sequential([keras.Input((5, 3)), L.LSTM(4), L.Dense(2)]),
    "bidirectional_gru_sequences": lambda: keras.Sequential([
        keras.Input((5, 3)), L.Bidirectional(L.GRU(3, return_sequences=True)), L.SimpleRNN(3), L.Dense(2)]),
    "masked_embedding_lstm": lambda: keras.Sequential([
        keras.Input((5,), dtype="int32"), L.Embedding(6, 3, mask_zero=True), L.LSTM(4, return_sequences=True),
        L.GlobalAveragePooling1D(), L.Dense(2)]),
    "custom_cell": lambda: keras.Sequential([keras.Input((5, 3)), L.RNN(_MinimalCell(4)), L.Dense(2)]),
}


@pytest.mark.parametrize("name", sorted(RECURRENT))
def test_recurrent_models_train_with_jit_compile_as_on_the_runtime(name):
    if name == "masked_embedding_lstm":
        x = RNG.integers(1, 6, size=(16, 5))
        x[::2, 3:] = 0  # padding, masked
    else:
        x = RNG.normal(size=(16, 5, 3)).astype("float32")
    plain_model, plain, plain_pred, plain_eval = _train(RECURRENT[name], x, False)
    jit_model, jit, jit_pred, jit_eval = _train(RECURRENT[name], x, True)
    for key in plain:
        np.testing.assert_allclose(jit[key], plain[key], rtol=1e-4, atol=1e-6, err_msg=key)
    for a, b in zip(plain_model.get_weights(), jit_model.get_weights()):
        np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(jit_pred, plain_pred, rtol=1e-4, atol=1e-5)
    assert jit_eval == pytest.approx(plain_eval, rel=1e-4, abs=1e-6)


def test_dropout_trains_under_jit_compile():
    model = keras.Sequential([keras.Input((6,)), L.Dense(16), L.Dropout(0.5), L.Dense(2)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True), jit_compile=True)
    x = RNG.normal(size=(16, 6)).astype("float32")
    history = model.fit(x, Y, epochs=3, batch_size=8, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    # dropout is active when training only: inference is deterministic, training draws new masks each step
    np.testing.assert_array_equal(model.predict(x, verbose=0), model.predict(x, verbose=0))
    step = tf.function(lambda v: model(v, training=True), jit_compile=True)
    a, b = step(x).numpy(), step(x).numpy()
    assert not np.array_equal(a, b)
    dense = model.layers[0](x).numpy() @ model.layers[2].kernel.numpy() + model.layers[2].bias.numpy()
    assert not np.allclose(a, dense)

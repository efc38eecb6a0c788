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
    model = keras.Sequential([keras.Input((5, 3)), L.LSTM(4), L.Dense(2)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True), jit_compile=True)
    with pytest.raises(Exception, match="cannot be compiled with jit_compile=True: op 'GradList"):
        model.fit(RNG.normal(size=(16, 5, 3)).astype("float32"), Y, epochs=1, verbose=0)

"""The seed documents' Keras examples, run with `import autograph_cli.tf as tf`
(written in the seeds' style)."""
import contextlib
import timeit

import numpy as np
import pytest

import autograph_cli.tf as tf
from autograph_cli.tf.keras._impl import models as keras_models

tape_in_function = pytest.mark.skipif(
    not keras_models._trace_train_step(), reason="this runtime has no GradientTape inside tf.function yet")


@contextlib.contextmanager
def assert_raises(error_class):
    try:
        yield
    except error_class as e:
        print('Caught expected exception \n  {}:'.format(error_class))
        print(e)
    except Exception as e:
        print('Got unexpected exception \n  {}:'.format(type(e)))
        raise
    else:
        raise Exception('Expected {} to be raised but no error was raised!'.format(error_class))


SINGLETON = "tf.function only supports singleton tf.Variables created on the first call"


def test_seed_001_conv_layer_eager_and_function(capsys):
    conv_layer = tf.keras.layers.Conv2D(100, 3)

    @tf.function
    def conv_fn(image):
        return conv_layer(image)

    image = tf.zeros([1, 40, 40, 100])  # the seed's [1, 200, 200, 100], smaller
    # Warm up
    conv_layer(image); conv_fn(image)
    print("Eager conv:", timeit.timeit(lambda: conv_layer(image), number=3))
    print("Function conv:", timeit.timeit(lambda: conv_fn(image), number=3))
    print("Note how there's not much difference in performance for convolutions")
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Eager conv: ") and out[1].startswith("Function conv: ")
    eager, traced = float(out[0].split()[-1]), float(out[1].split()[-1])
    assert traced < 3 * eager + 0.05  # a convolution costs the same either way
    assert conv_fn(image).shape == [1, 38, 38, 100]
    np.testing.assert_allclose(conv_fn(image + 1.0).numpy(), conv_layer(image + 1.0).numpy(), rtol=1e-5)


def test_seed_002_keras_model_with_tf_function_call():
    x = tf.ones([3, 2])

    class MyModel(tf.keras.Model):
        def __init__(self, keep_probability=0.2):
            super(MyModel, self).__init__()
            self.dense1 = tf.keras.layers.Dense(4)
            self.dense2 = tf.keras.layers.Dense(5)
            self.keep_probability = keep_probability

        @tf.function
        def call(self, inputs, training=True):
            y = self.dense2(self.dense1(inputs))
            if training:
                return tf.nn.dropout(y, self.keep_probability)
            else:
                return y

    model = MyModel()
    with_dropout = model(x, training=True)  # executes a graph, with dropout
    without = model(x, training=False)  # executes a graph, without dropout
    assert len(model.trainable_variables) == 4
    w1, b1, w2, b2 = (v.numpy() for v in model.trainable_variables)
    ref = (np.ones((3, 2)) @ w1 + b1) @ w2 + b2
    np.testing.assert_allclose(without.numpy(), ref, rtol=1e-5)
    d = with_dropout.numpy()
    kept = d != 0
    np.testing.assert_allclose(d[kept], (ref / 0.8)[kept], rtol=1e-5)
    # rate 0.2 over 15 values: some, not all, kept (probability of failure < 1e-3)
    assert kept.any()
    # one trace per value of `training`; no new variables on the second
    assert model.call.python_function.__name__ == "call"
    np.testing.assert_allclose(model(x, training=False).numpy(), without.numpy())


@tape_in_function
def test_seed_001_two_optimizers_in_one_function(capsys):
    opt1 = tf.keras.optimizers.Adam(learning_rate = 1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate = 1e-3)

    @tf.function
    def train_step(w, x, y, optimizer):
       with tf.GradientTape() as tape:
           L = tf.reduce_sum(tf.square(w*x - y))
       gradients = tape.gradient(L, [w])
       optimizer.apply_gradients(zip(gradients, [w]))

    w = tf.Variable(2.)
    x = tf.constant([-1.])
    y = tf.constant([2.])

    train_step(w, x, y, opt1)
    print("Calling `train_step` with different optimizer...")
    with assert_raises(ValueError):
      train_step(w, x, y, opt2)
    out = capsys.readouterr().out
    assert "Calling `train_step` with different optimizer..." in out
    assert "Caught expected exception \n  <class 'ValueError'>:" in out
    assert SINGLETON in out
    # Adam's first step moves w by the learning rate, against the gradient
    assert float(w.numpy()) == pytest.approx(2.0 - 1e-2, abs=1e-6)


@tape_in_function
def test_seed_001_one_function_per_optimizer():
    opt1 = tf.keras.optimizers.Adam(learning_rate = 1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate = 1e-3)

    # Not a tf.function.
    def train_step(w, x, y, optimizer):
       with tf.GradientTape() as tape:
           L = tf.reduce_sum(tf.square(w*x - y))
       gradients = tape.gradient(L, [w])
       optimizer.apply_gradients(zip(gradients, [w]))

    w = tf.Variable(2.)
    x = tf.constant([-1.])
    y = tf.constant([2.])

    # Make a new Function and ConcreteFunction for each optimizer.
    train_step_1 = tf.function(train_step).get_concrete_function(w, x, y, opt1)
    train_step_2 = tf.function(train_step).get_concrete_function(w, x, y, opt2)
    for i in range(10):
      if i % 2 == 0:
        train_step_1(w, x, y) # `opt1` is not used as a parameter.
      else:
        train_step_2(w, x, y) # `opt2` is not used as a parameter.
    assert int(opt1.iterations.numpy()) == 5 and int(opt2.iterations.numpy()) == 5
    # w*x should approach y = 2, so w goes from 2 towards -2
    assert float(w.numpy()) < 2.0 - 5e-2


def test_singleton_rule_without_a_tape():
    """The optimizers' slots alone trigger the rule (no GradientTape needed)."""
    opt1, opt2 = tf.keras.optimizers.SGD(0.1, momentum=0.5), tf.keras.optimizers.SGD(0.1, momentum=0.5)

    @tf.function
    def step(w, g, optimizer):
        optimizer.apply_gradients([(g, w)])

    w = tf.Variable([1.0, 1.0])
    step(w, tf.constant([1.0, 2.0]), opt1)
    np.testing.assert_allclose(w.numpy(), [0.9, 0.8], rtol=1e-6)
    step(w, tf.constant([1.0, 2.0]), opt1)  # same trace; momentum carried in the slot
    np.testing.assert_allclose(w.numpy(), [0.75, 0.5], rtol=1e-6)
    with pytest.raises(ValueError, match=SINGLETON):
        step(w, tf.constant([1.0, 2.0]), opt2)


def test_seed_001_multiple_models_and_the_build_workaround():
    @tf.function
    def apply(model, x):
        return model(x)

    x = tf.ones([2, 3])
    apply(tf.keras.layers.Dense(4), x)
    with pytest.raises(ValueError, match=SINGLETON):
        apply(tf.keras.layers.Dense(4), x)  # a new layer creates its weights on a later trace

    @tf.function
    def apply2(model, x):
        return model(x)

    models = []
    for _ in range(2):
        m = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        m.build((None, 3))  # the seeds' advice: weights exist before the function runs
        models.append(m)
    for m in models:
        np.testing.assert_allclose(apply2(m, x).numpy(), m(x).numpy(), rtol=1e-6)

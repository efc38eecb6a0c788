"""Seed 002 (the tf.function API reference, r1.15): its examples with
`import autograph_cli.tf as tf`."""
from __future__ import annotations

import numpy as np

import autograph_cli.tf as tf


def test_example_usage():
    def f(x, y):
        return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)

    g = tf.function(f)
    x = tf.constant([[2.0, 3.0]])
    y = tf.constant([[3.0, -2.0]])
    assert f(x, y).numpy() == g(x, y).numpy()

    @tf.function
    def h():
        return f(x, y)

    assert (h().numpy() == f(x, y).numpy()).all()

    @tf.function
    def g2(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        else:
            return -x // 2

    assert g2(tf.constant([1.0, 2.0])).numpy().tolist() == [1.0, 4.0]
    assert g2(tf.constant([-3.0, 1.0])).numpy().tolist() == [1.0, -1.0]

    v = tf.Variable(0)
    seen = []

    @tf.function
    def g3(x):
        for i in x:
            tf.compat.v1.assign(v, i)
            tf.compat.v1.py_func(lambda i: seen.append(int(i)), [i], [])

    g3(tf.constant([1, 2, 3]))
    assert v.numpy() == 3 and seen == [1, 2, 3]


def test_referencing_variables():
    c = tf.Variable(0)

    @tf.function
    def f(x):
        c.assign_add(1)
        return x + tf.compat.v1.to_float(c)

    assert int(c) == 0
    assert f(1.0) == 2.0
    assert int(c) == 1
    assert f(1.0) == 3.0
    assert int(c) == 2


def test_methods_use_their_own_variables():
    class Dense(object):
        def __init__(self):
            self.W = tf.Variable(tf.compat.v1.glorot_uniform_initializer()((10, 10)))
            self.b = tf.Variable(tf.zeros(10))

        @tf.function
        def compute(self, x):
            return tf.matmul(x, self.W) + self.b

    d1 = Dense()
    d2 = Dense()
    x = tf.random.uniform((10, 10))
    assert not (d1.compute(x).numpy() == d2.compute(x).numpy()).all()


def test_input_signatures():
    traces = []

    @tf.function
    def f(x):
        traces.append(x.shape)
        return tf.add(x, 1.0)

    f(tf.constant(1.0))
    f(tf.constant([1.0, 1.0]))
    f(tf.constant([[3.0]]))
    assert len(traces) == 3

    traces.clear()

    @tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    def g(x):
        traces.append(x.shape)
        return tf.add(x, 1.0)

    assert g(tf.constant(1.0)).numpy() == 2.0
    assert g(tf.constant([1.0, 1.0])).numpy().tolist() == [2.0, 2.0]
    assert g(2.0).numpy() == 3.0  # inputs are converted to the specs
    assert traces == [tf.TensorShape(None)]


def test_python_values_are_baked_in():
    def add_noise():
        return tf.eye(5) + np.random.randn(5, 5).astype(np.float32)

    traced = tf.function(add_noise)
    assert (traced().numpy() == traced().numpy()).all()
    assert not (add_noise().numpy() == add_noise().numpy()).all()


def test_api_arguments():
    for kwargs in (
        {"autograph": False},
        {"experimental_relax_shapes": True},
        {"experimental_compile": True},
        {"experimental_autograph_options": (tf.autograph.experimental.Feature.ALL,)},
    ):
        f = tf.function(lambda x: x * 2, **kwargs)
        assert f(tf.constant(3)).numpy() == 6

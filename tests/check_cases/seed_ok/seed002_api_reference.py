"""The correct tf.function examples of seed 002 (the r1.15 API reference), as
the seed writes them. `autograph check` must report nothing here."""
import numpy as np
import tensorflow as tf


def f(x, y):
  return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)

g = tf.function(f)
x = tf.constant([[2.0, 3.0]])
y = tf.constant([[3.0, -2.0]])
assert f(x, y).numpy() == g(x, y).numpy()


@tf.function
def h():
  return f(x, y)


# Data-dependent control flow is also captured in the graph.
@tf.function
def g(x):
  if tf.reduce_sum(x) > 0:
    return x * x
  else:
    return -x // 2


# print and TensorFlow side effects are supported (the `l.append(i)` line the
# seed marks "Caution! Doesn't work." is in ag201_outer_mutation.py).
v = tf.Variable(0)
l = []
@tf.function
def g(x):
  for i in x:
    print(i)  # Works
    tf.compat.v1.assign(v, i)  # Works
    tf.compat.v1.py_func(lambda i: l.append(i))(i)  # Works


c = tf.Variable(0)
@tf.function
def f(x):
  c.assign_add(1)
  return x + tf.compat.v1.to_float(c)


class Dense(object):
  def __init__(self):
    self.W = tf.Variable(tf.compat.v1.glorot_uniform_initializer()((10, 10)))
    self.b = tf.Variable(tf.zeros(10))

  @tf.function
  def compute(self, x):
    return tf.matmul(x, self.W) + self.b


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


@tf.function
def f(x):
  return tf.add(x, 1.)


@tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
def f(x):
  return tf.add(x, 1.)


def add_noise():
  return tf.eye(5) + np.random.randn(5, 5)

traced = tf.function(add_noise)

"""AG203: an attribute write on an object that lives outside the staged function."""
import autograph_cli.tf as tf


class Model(tf.Module):
  def __init__(self):
    self.v = tf.Variable(0)
    self.counter = 0

  @tf.function
  def __call__(self):
    # Seed 001: the Python counter is captured during the first trace.
    if self.counter == 0:
      # A python side-effect
      self.counter += 1  # expect: AG203
      self.v.assign_add(1)
    return self.v


class MyClass:

  def __init__(self):
    self.field = None


external_object = MyClass()


@tf.function
def leaky_function():
  # Seed 001: "mutating ... an object" (decorated here).
  a = tf.constant(1)
  external_object.field = a  # expect: AG203


@tf.function
def add_bias(model, x):
  model.bias = model.bias + 5.0  # expect: AG203
  return model.weight * x + model.bias


# ---- clean variants ---------------------------------------------------------

class Count(tf.Module):
  def __init__(self):
    self.count = None

  @tf.function
  def __call__(self):
    # Seed 001: the singleton-Variable pattern.
    if self.count is None:
      self.count = tf.Variable(0)
    return self.count.assign_add(1)


class LiftedModel(tf.Module):
  def __init__(self):
    self.v = tf.Variable(0)
    self.counter = 0

  @tf.function
  def __call__(self):
    # Seed 001: the tf.init_scope workaround.
    if self.counter == 0:
      with tf.init_scope():
        self.counter += 1
        self.v.assign_add(1)
    return self.v


class Lazy(tf.Module):
  def __init__(self):
    self.w = None

  @tf.function
  def __call__(self, x):
    if self.w is not None:
      pass
    else:
      self.w = tf.Variable(tf.ones_like(x))
    return self.w * x


class Obj:
  pass


@tf.function
def local_object(x):
  o = Obj()
  o.value = x
  return o.value

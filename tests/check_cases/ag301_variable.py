"""AG301: a `tf.Variable` created on every call of a staged function."""
import autograph_cli.tf as tf
from autograph_cli.tf import Variable


@tf.function
def f(x):
  # Seed 000 and 001: raises ValueError.
  v = tf.Variable(1.0)  # expect: AG301
  v.assign_add(x)
  return v


@tf.function
def imported_name(x):
  return Variable(x)  # expect: AG301


@tf.function
def in_a_loop(n):
  out = []
  for i in range(n):
    out.append(tf.Variable(i))  # expect: AG301
  return out


# ---- clean variants ---------------------------------------------------------

v = tf.Variable(1.0)


@tf.function
def reuses(x):
  # Seed 000: "Non-ambiguous code is ok though".
  return v.assign_add(x)


class C: pass
obj = C(); obj.v = None


@tf.function
def g(x):
  # Seed 000: created only the first time the function is executed.
  if obj.v is None:
    obj.v = tf.Variable(1.0)
  return obj.v.assign_add(x)


class Model(tf.Module):
  def __init__(self):
    self.w = None

  @tf.function
  def __call__(self, x):
    if not hasattr(self, 'b'):
      self.b = tf.Variable(0.0)
    if self.w is None:
      self.w = tf.Variable(tf.ones_like(x))
    return self.w * x + self.b


@tf.function
def lifted(x):
  with tf.init_scope():
    w = tf.Variable(1.0)
  return w * x

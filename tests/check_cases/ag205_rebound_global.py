"""AG205: a staged function reads a plain Python global that the module
rebinds; the traced graph keeps the value the global had when it was traced."""
import autograph_cli.tf as tf


@tf.function
def buggy_add():
  # Seed 001, "Depending on Python global and free variables".
  return 1 + foo  # expect: AG205


foo = 1
print("Buggy:", buggy_add())
foo = 100
print("Buggy:", buggy_add())  # Did not change!

SCALE = 2.0


def set_scale(value):
  global SCALE
  SCALE = value


@tf.function
def scaled(x):
  return x * SCALE + x * SCALE  # expect: AG205


# ---- clean variants ---------------------------------------------------------

@tf.function
def recommended_add(foo):
  return 1 + foo


bar = tf.Variable(1)
bar = tf.Variable(2)


@tf.function
def variable_add():
  return 1 + bar


LIMIT = 10


@tf.function
def constant_global(x):
  return tf.minimum(x, LIMIT)


@tf.function
def writes_it(x):
  global SCALE
  SCALE = x  # expect: AG202
  return SCALE

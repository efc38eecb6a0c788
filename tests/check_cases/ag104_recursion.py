"""AG104: a staged function that calls itself, directly or through another
staged function."""
import autograph_cli.tf as tf


@tf.function
def recursive_fn(n):
  # Seed 001: "Recursive Functions are not supported".
  if n > 0:
    return recursive_fn(n - 1)  # expect: AG104
  else:
    return 1


@tf.function
def is_even(n):
  if n == 0:
    return True
  return is_odd(n - 1)  # expect: AG104


@tf.function
def is_odd(n):
  if n == 0:
    return False
  return is_even(n - 1)  # expect: AG104


class Tree:
  @tf.function
  def depth(self, node):
    if node is None:
      return 0
    return 1 + self.depth(node.left)  # expect: AG104


# ---- clean variants ---------------------------------------------------------

@tf.function
def add(a, b):
  return a + b


@tf.function
def dense_layer(x, w, b):
  # Seed 000: a staged function may call another one.
  return add(tf.matmul(x, w), b)


def plain_factorial(n):
  # Not staged: recursion is fine in Python.
  return 1 if n <= 1 else n * plain_factorial(n - 1)


@tf.function
def shadowed(x, shadowed=None):
  return shadowed(x) if shadowed else x


def size(x):
  return tf.size(x)


class Box:
  @tf.function
  def size(self, x):
    return size(x)  # the module function, not the method

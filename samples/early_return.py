"""Early returns: from inside a loop, and from both branches of an ``if``.

Seed 000: "If you have a break or early return clause that depends on a
tensor, the top-level condition or iterable should also be a tensor." Here
the loop runs over ``tf.range``, so a tensor-dependent return is allowed.
"""
import autograph_cli.tf as tf


def first_above(x, threshold):
  """Index of the first element of x greater than threshold, or -1."""
  for i in tf.range(tf.size(x)):
    if x[i] > threshold:
      return i
  return -1


def sign(x):
  """-1, 0 or 1; the function ends with no return after its if."""
  if x > 0:
    return 1
  elif x < 0:
    return -1
  return 0


def recursive_fn(n):
  # Seed 001: fine on Python values, unsupported on tensors (it would recurse
  # forever while tracing).
  if n > 0:
    return recursive_fn(n - 1)
  else:
    return 1


if __name__ == '__main__':
  print(tf.function(first_above)(tf.constant([1, 5, 2, 8]), tf.constant(4)))
  print(tf.function(first_above)(tf.constant([1, 2]), tf.constant(4)))
  print(tf.function(sign)(tf.constant(-3)))
  print(recursive_fn(5))

"""break and continue (seed 000, "AutoGraph and loops").

A ``break`` that depends on a tensor needs a tensor loop: ``while
tf.constant(True)`` and ``for i in tf.range(5)`` are staged loops, so the
break becomes part of their condition. In a Python loop (``while True``,
``for i in range(5)``) it is an error while tracing: the ``buggy_`` versions.
On Python values all of them are ordinary loops.
"""
import contextlib

import autograph_cli.tf as tf


# Some helper code to demonstrate the kinds of errors you might encounter.
@contextlib.contextmanager
def assert_raises(error_class):
  try:
    yield
  except error_class as e:
    print('Caught expected exception \n  {}: {}'.format(error_class, e))
  except Exception as e:
    print('Got unexpected exception \n  {}: {}'.format(type(e), e))
  else:
    raise Exception('Expected {} to be raised but no error was raised!'.format(
        error_class))


def buggy_while_py_true_tf_break(x):
  while True:
    if tf.equal(x, 0):
      break
    x -= 1
  return x


def while_tf_true_tf_break(x):
  while tf.constant(True):
    if tf.equal(x, 0):
      break
    x -= 1
  return x


def buggy_py_for_tf_break():
  x = 0
  for i in range(5):
    if tf.equal(i, 3):
      break
    x += i
  return x


def tf_for_tf_break():
  x = 0
  for i in tf.range(5):
    if tf.equal(i, 3):
      break
    x += i
  return x


def count_positive_until(xs, stop):
  """Count the positive items of xs that come before the first `stop`."""
  n = 0
  for x in xs:
    if x == stop:
      break
    if x <= 0:
      continue  # skip non-positive items
    n += 1
  else:
    n = -n  # no `stop` found: report the count negated
  return n


if __name__ == '__main__':
  with assert_raises(TypeError):
    tf.function(buggy_while_py_true_tf_break)(tf.constant(5))
  print(tf.function(while_tf_true_tf_break)(tf.constant(5)))
  with assert_raises(TypeError):
    tf.function(buggy_py_for_tf_break)()
  print(tf.function(tf_for_tf_break)())
  print(count_positive_until([3, -1, 4, 0, 7], 0))

"""break and continue (seed 000, "AutoGraph and loops").

In a tensor loop (``while tf.constant(True)``, ``for i in tf.range(5)``) a
``break`` that depends on a tensor becomes part of the staged loop's
condition. Seed 000 calls the same break in a Python loop (``while True``,
``for i in range(5)``) a bug (the ``buggy_`` versions, which ``autograph
check`` reports as AG103): as in TensorFlow, tracing them raises a
NotImplementedError (a TypeError too) at the loop, since a Python loop
cannot stop on a value known only when the graph runs. On Python values all
of them are ordinary loops.
"""
import autograph_cli.tf as tf


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
  try:
    tf.function(buggy_while_py_true_tf_break)(tf.constant(5))
  except TypeError as e:  # "file:line: message: details"
    print('buggy_while_py_true_tf_break raises:', str(e).split(': ')[1])
  try:
    tf.function(buggy_py_for_tf_break)()
  except TypeError as e:
    print('buggy_py_for_tf_break raises:', str(e).split(': ')[1])
  print(tf.function(while_tf_true_tf_break)(tf.constant(5)))
  print(tf.function(tf_for_tf_break)())
  print(count_positive_until([3, -1, 4, 0, 7], 0))

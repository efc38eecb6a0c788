"""AutoGraph and loops (seed 000).

A ``for`` over a tensor or a dataset, or a ``while`` whose condition is a
tensor, becomes a staged loop; a loop over Python values is unrolled while
tracing.
"""
import autograph_cli.tf as tf


def test_dynamically_unrolled(f, *args):
  g = f.get_concrete_function(*args).graph
  if any(node.name == 'while' for node in g.as_graph_def().node):
    print("{}({}) uses tf.while_loop.".format(
        f.__name__, ', '.join(map(str, args))))
  elif any(node.name == 'ReduceDataset' for node in g.as_graph_def().node):
    print("{}({}) uses tf.data.Dataset.reduce.".format(
        f.__name__, ', '.join(map(str, args))))
  else:
    print("{}({}) gets unrolled.".format(
        f.__name__, ', '.join(map(str, args))))


def for_in_range():
  x = 0
  for i in range(5):
    x += i
  return x


def for_in_tfrange():
  x = tf.constant(0, dtype=tf.int32)
  for i in tf.range(5):
    x += i
  return x


def for_in_tfdataset():
  x = tf.constant(0, dtype=tf.int64)
  for i in tf.data.Dataset.range(5):
    x += i
  return x


def while_py_cond():
  x = 5
  while x > 0:
    x -= 1
  return x


def while_tf_cond():
  x = tf.constant(5)
  while x > 0:
    x -= 1
  return x


if __name__ == '__main__':
  test_dynamically_unrolled(tf.function(for_in_range))
  test_dynamically_unrolled(tf.function(for_in_tfrange))
  test_dynamically_unrolled(tf.function(for_in_tfdataset))
  test_dynamically_unrolled(tf.function(while_py_cond))
  test_dynamically_unrolled(tf.function(while_tf_cond))

"""AutoGraph: conditionals (seed 000).

An ``if`` becomes a staged conditional only when its condition is a tensor;
otherwise it runs as Python while tracing. A staged conditional traces both
branches, so each branch's Python ``print`` runs once per trace.
"""
import autograph_cli.tf as tf


def test_tf_cond(f, *args):
  g = f.get_concrete_function(*args).graph
  if any(node.name == 'cond' for node in g.as_graph_def().node):
    print("{}({}) uses tf.cond.".format(
        f.__name__, ', '.join(map(str, args))))
  else:
    print("{}({}) executes normally.".format(
        f.__name__, ', '.join(map(str, args))))


def hyperparam_cond(x, training=True):
  if training:
    x = tf.nn.dropout(x, rate=0.5)
  return x


def maybe_tensor_cond(x):
  if x < 0:
    x = -x
  return x


def f():
  x = tf.constant(0)
  if tf.constant(True):
    x = x + 1
    print("Tracing `then` branch")
  else:
    x = x - 1
    print("Tracing `else` branch")
  return x


if __name__ == '__main__':
  test_tf_cond(tf.function(hyperparam_cond), tf.ones([1], dtype=tf.float32))
  test_tf_cond(tf.function(maybe_tensor_cond), tf.constant(-1))
  test_tf_cond(tf.function(maybe_tensor_cond), -1)
  print(tf.function(f)())

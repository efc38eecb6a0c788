"""simple_relu (seed 004, "Converting Python functions to graphs").

Both branches return, so the converted form carries the return value out of
the ``if`` as state.
"""
import autograph_cli.tf as tf


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


if __name__ == '__main__':
    # `tf_simple_relu` is a `Function` that wraps `simple_relu`.
    tf_simple_relu = tf.function(simple_relu)

    print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
    print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())

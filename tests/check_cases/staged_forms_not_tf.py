"""`tf` bound to another module: `@tf.function` is not the runtime's."""
import mylib as tf


@tf.function
def not_staged(x):
  return tf.Variable(x)

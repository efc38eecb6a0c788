"""The "simple loop" of seeds 000 and 001.

Squash x with tanh until its elements sum to at most 1. The condition is a
tensor, so under ``tf.function`` this is one staged while loop and
``tf.print`` prints on every iteration.
"""
import autograph_cli.tf as tf


def f(x):
  while tf.reduce_sum(x) > 1:
    tf.print(x)
    x = tf.tanh(x)
  return x


if __name__ == '__main__':
  print(tf.function(f)(tf.random.uniform([5])))

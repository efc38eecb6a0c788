"""Collatz: count the steps from x down to 1.

A ``while`` loop whose condition depends on ``x``: staged when ``x`` is a
tensor, a Python loop when ``x`` is a Python int. (Seeds 000/001 use the
Collatz step in ``next_collatz``; this is the loop around it.)
"""
import autograph_cli.tf as tf


def collatz(x):
  """Number of Collatz steps it takes x to reach 1."""
  count = 0
  while x != 1:
    count += 1
    if x % 2 == 0:
      x = x // 2
    else:
      x = 3 * x + 1
  return count


if __name__ == '__main__':
  print(collatz(27))
  print(tf.function(collatz)(tf.constant(27)))

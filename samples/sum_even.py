"""Sum of the even items: ``continue`` in a for loop.

Over a Python list this is a Python loop; over a tensor (or ``tf.range``)
it is a staged loop and ``continue`` becomes a guard on the rest of the body.
"""
import autograph_cli.tf as tf


def sum_even(items):
  s = 0
  for c in items:
    if c % 2 > 0:
      continue
    s += c
  return s


if __name__ == '__main__':
  print(sum_even([1, 2, 3, 4, 5, 6]))
  print(tf.function(sum_even)(tf.range(10)))

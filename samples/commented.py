"""Comments inside converted control flow: ``autograph to-code`` keeps
them, each in the helper made from its block.

The comments closing a block (after its last statement, a lowered
``break`` or ``return`` too), those above ``else:`` or ``except``, stay in
the functional form, mapped to their own lines.
"""
import autograph_cli.tf as tf


def clipped_sum(xs, limit):
  total = 0
  for x in xs:
    if x > limit:
      total += limit
      # clipped to the limit
    # the other items
    else:
      total += x
      # added as they are
  # (every item added)
  n = 0
  while n < limit:
    n += 1
    # counted up to the limit
  try:
    total = total // n
  # (a zero limit)
  except ZeroDivisionError:
    total = 0
    # nothing to average
  return total


def first_over(xs, limit):
  i = 0
  for x in xs:
    if x > limit:
      return i
      # the first item over the limit
    if x < 0:
      break
      # a negative item ends the search
    i += 1
    # the next index
  return -1


if __name__ == '__main__':
  print(clipped_sum([1, 5, 2, 8], 4))
  print(tf.function(clipped_sum)(tf.constant([1, 5, 2, 8]), tf.constant(4)))
  print(first_over([1, 5, 2, 8], 4), first_over([1, -5, 8], 4), first_over([], 4))
  print(tf.function(first_over)(tf.constant([1, 5, 2, 8]), tf.constant(4)))

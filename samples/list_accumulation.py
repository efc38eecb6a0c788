"""Accumulating into a Python list (seed 001, "Accumulating values in a loop").

Appending to a list is a Python side effect, so in a staged loop the list
becomes a TensorArray: ``xs.append(v)`` is written ``xs = ag__.list_append(xs,
v)`` in the converted form, which a staged loop can carry as state.
"""
import autograph_cli.tf as tf


def squares_of_even(n):
  """The squares of the even numbers below n, in order."""
  squares = []
  for i in tf.range(n):
    if i % 2 == 0:
      squares.append(i * i)
  return squares


def balanced(text):
  """Whether the brackets in text are balanced: a list used as a stack."""
  stack = []
  for ch in text:
    if ch in '([{':
      stack.append(ch)
    elif ch in ')]}':
      if not stack:
        return False
      opening = stack.pop()
      if '([{'.index(opening) != ')]}'.index(ch):
        return False
  return not stack


if __name__ == '__main__':
  print(squares_of_even(7))
  print(balanced('{[()()]}'), balanced('(]'))

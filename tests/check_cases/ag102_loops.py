"""AG102: a variable first assigned inside a loop that may be staged, and used
after the loop (a staged loop may run zero times)."""
import autograph_cli.tf as tf


@tf.function
def buggy_loop_var_uninitialized():
  # Seed 000: all tensors used downstream must be initialized above the loop.
  for i in tf.range(3):
    x = i
  return x  # expect: AG102


@tf.function
def while_tensor_condition(x):
  while tf.reduce_sum(x) > 1:
    last = x
    x = tf.tanh(x)
  return last  # expect: AG102


@tf.function
def loop_target_after(n):
  for i in tf.range(n):
    tf.print(i)
  return i  # expect: AG102


@tf.function
def over_a_parameter(dataset):
  for x, y in dataset:  # a parameter may be a tensor or a tf.data.Dataset
    loss = tf.abs(y - x)
  return loss  # expect: AG102


@tf.function
def with_break(n):
  for i in tf.range(n):
    found = i
    if i > 3:
      break
  return found  # expect: AG102


# ---- clean variants ---------------------------------------------------------

@tf.function
def initialized_before():
  # Seed 000: the fixed version.
  x = tf.constant(0)
  for i in tf.range(3):
    x = i
  return x


@tf.function
def python_range():
  for i in range(5):
    last = i
  return last


@tf.function
def python_list():
  for v in [1, 2, 3]:
    last = v
  return last


@tf.function
def python_while():
  x = 5
  while x > 0:
    y = x
    x -= 1
  return y


@tf.function
def used_only_inside(n):
  total = tf.constant(0)
  for i in tf.range(n):
    sq = i * i
    total += sq
  return total


@tf.function
def dict_items(d):
  for k, v in d.items():
    last = v
  return last

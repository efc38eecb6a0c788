"""AG103: a `break` or `return` that depends on a tensor inside a Python loop."""
import autograph_cli.tf as tf


@tf.function
def buggy_while_py_true_tf_break(x):
  # Seed 000: raises TypeError.
  while True:
    if tf.equal(x, 0):
      break  # expect: AG103
    x -= 1
  return x


@tf.function
def buggy_py_for_tf_break():
  # Seed 000: raises TypeError.
  x = 0
  for i in range(5):
    if tf.equal(i, 3):
      break  # expect: AG103
    x += i
  return x


@tf.function
def early_return_in_python_loop(x):
  for i in range(5):
    if tf.reduce_sum(x) > 10:
      return x  # expect: AG103
    x = x * 2
  return x


@tf.function
def else_branch_break(x):
  for i in range(3):
    if tf.reduce_any(x > i):
      x = x - 1
    else:
      break  # expect: AG103
  return x


@tf.function
def return_through_staged_loop(x):
  for i in range(3):
    for j in tf.range(3):
      if tf.equal(j, i):
        return j  # expect: AG103
  return x


@tf.function
def range_of_a_parameter(x, n):
  # `n` is usually a Python int here; only `range(<tensor>)` becomes a staged loop.
  for i in range(n):
    if tf.reduce_all(x > 3):
      break  # expect: AG103
    x = x + 1
  return x


# ---- clean variants ---------------------------------------------------------

@tf.function
def while_tf_true_tf_break(x):
  while tf.constant(True):
    if tf.equal(x, 0):
      break
    x -= 1
  return x


@tf.function
def tf_for_tf_break():
  x = 0
  for i in tf.range(5):
    if tf.equal(i, 3):
      break
    x += i
  return x


@tf.function
def python_break():
  x = 0
  for i in range(5):
    if i == 3:
      break
    x += i
  return x


@tf.function
def inner_staged_loop_break(x):
  for i in range(3):
    for j in tf.range(5):
      if tf.equal(j, i):
        break
  return x


@tf.function
def tensor_continue():
  x = 0
  for i in range(5):
    if tf.equal(i, 3):
      continue
    x += i
  return x


@tf.function
def unknown_condition(x):
  for i in range(5):
    if x > i:  # may be a Python value: not reported
      break
  return x


@tf.function
def range_of_a_tensor(x):
  n = tf.size(x)
  for i in range(n):  # AutoGraph stages `range(<tensor>)` like `tf.range`
    if tf.equal(x[i], 0):
      break
  return x

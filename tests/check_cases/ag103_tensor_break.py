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
def parameter_condition(x):
  for i in range(5):
    if x > i:  # a tensor whenever x is one
      break  # expect: AG103
  return x


@tf.function
def is_prime(n):
  # Arithmetic on a parameter: a tensor whenever n is one (issue 13).
  k = 2
  while k < 100:
    if k * k > n:
      break  # expect: AG103
    if n % k == 0:
      return False  # expect: AG103
    k += 1
  return True


@tf.function
def derived_from_a_parameter(x, limit):
  half = limit // 2
  for i in range(5):
    if i >= half:
      break  # expect: AG103
  return x


@tf.function
def derived_from_a_tf_result(x):
  total = tf.reduce_sum(x)
  scaled = total * 2 + 1  # arithmetic on a tf result is a tensor
  for i in range(3):
    if scaled > i:
      return scaled  # expect: AG103
  return x


@tf.function
def python_facts_about_a_parameter(x, n=3):
  # Shapes, lengths, `is None` and a parameter with a Python default stay Python values.
  for i in range(5):
    if x is None or len(x.shape) > i or n > i:
      break
  return x


@tf.function
def range_of_a_tensor(x):
  n = tf.size(x)
  for i in range(n):  # AutoGraph stages `range(<tensor>)` like `tf.range`
    if tf.equal(x[i], 0):
      break
  return x

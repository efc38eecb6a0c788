"""The checker agrees with the runtime: each function marked `# expect:` fails
when called through `autograph_cli.tf.function` with the arguments `CALLS`
gives it, except AG102 (TensorFlow 1.x fails there; this runtime returns
the value unless the loop ran zero times), and each unmarked function runs. (tests/test_check.py
calls them.)"""
import autograph_cli.tf as tf


@tf.function
def one_branch():
  if tf.constant(True):
    x = tf.ones([3, 3])
  return x  # expect: AG101


@tf.function
def elif_without_else(x):
  if x > 0:
    y = 1
  elif x < 0:
    y = -1
  return y  # expect: AG101


@tf.function
def loop_var_uninitialized():
  for i in tf.range(3):
    x = i
  return x  # expect: AG102


@tf.function
def while_defines(x):
  while tf.reduce_sum(x) > 1:
    last = x
    x = tf.tanh(x)
  return last  # expect: AG102


@tf.function
def py_while_true_tf_break(x):
  while True:
    if tf.equal(x, 0):
      break  # expect: AG103
    x -= 1
  return x


@tf.function
def py_for_tf_break():
  x = 0
  for i in range(5):
    if tf.equal(i, 3):
      break  # expect: AG103
    x += i
  return x


@tf.function
def range_of_python_int(x, n):
  for i in range(n):
    if tf.reduce_all(x > 3):
      return x  # expect: AG103
    x = x + 1
  return x


@tf.function
def variable_each_call(x):
  v = tf.Variable(1.0)  # expect: AG301
  v.assign_add(x)
  return v


@tf.function
def partial_return(x):
  # A return in an `if` with no `else` and nothing after it: the other path
  # falls off the end (None), which a staged conditional cannot return.
  y = x * 2
  if x > 0:  # expect: AG105
    return y


@tf.function
def recursive_fn(n):
  if n > 0:
    return recursive_fn(n - 1)  # expect: AG104
  else:
    return 1


# ---- clean: these run ------------------------------------------------------------



@tf.function
def both_branches(x):
  if x > 0:
    y = x
  else:
    y = -x
  return y


@tf.function
def initialized_before_loop():
  x = tf.constant(0)
  for i in tf.range(3):
    x = i
  return x


@tf.function
def tf_true_tf_break(x):
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
def range_of_a_tensor(x):
  total = tf.constant(0)
  for i in range(tf.size(x)):
    if tf.equal(x[i], 0):
      break
    total += x[i]
  return total


@tf.function
def python_hyperparameter(x, training=True):
  if training:
    scale = 2
  if training:
    x = x * scale
  return x


@tf.function
def python_loop_defines():
  for i in range(3):
    last = i
  return last


@tf.function
def every_branch_returns(x):
  if x > 0:
    return 1
  else:
    return 0


@tf.function
def first_above(x, threshold):
  for i in tf.range(tf.size(x)):
    if x[i] > threshold:
      return i
  return -1


class Count(tf.Module):
  def __init__(self):
    self.count = None

  @tf.function
  def __call__(self):
    if self.count is None:
      self.count = tf.Variable(0)
    return self.count.assign_add(1)


def _count_twice():
  c = Count()
  c()
  return c()


CALLS = {
    "one_branch": lambda: one_branch(),
    "elif_without_else": lambda: elif_without_else(tf.constant(3)),
    "loop_var_uninitialized": lambda: loop_var_uninitialized(),
    "while_defines": lambda: while_defines(tf.constant([2.0, 3.0])),
    "py_while_true_tf_break": lambda: py_while_true_tf_break(tf.constant(5)),
    "py_for_tf_break": lambda: py_for_tf_break(),
    "range_of_python_int": lambda: range_of_python_int(tf.constant(0), 5),
    "variable_each_call": lambda: variable_each_call(1.0),
    "recursive_fn": lambda: recursive_fn(tf.constant(5)),
    "both_branches": lambda: both_branches(tf.constant(-2)),
    "initialized_before_loop": lambda: initialized_before_loop(),
    "tf_true_tf_break": lambda: tf_true_tf_break(tf.constant(5)),
    "tf_for_tf_break": lambda: tf_for_tf_break(),
    "range_of_a_tensor": lambda: range_of_a_tensor(tf.constant([1, 2, 0, 4])),
    "python_hyperparameter": lambda: python_hyperparameter(tf.constant(3)),
    "python_loop_defines": lambda: python_loop_defines(),
    "Count.__call__": _count_twice,
    "partial_return": lambda: partial_return(tf.constant(-3)),
    "every_branch_returns": lambda: every_branch_returns(tf.constant(-3)),
    "first_above": lambda: first_above(tf.constant([1, 5, 2]), tf.constant(4)),
}

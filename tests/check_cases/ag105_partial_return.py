"""AG105: an `if` whose condition may be a tensor that returns in some
branches and lets the others fall off the end of the function (returning
None). Staged, the conditional would produce the return value on one side and
nothing on the other. (An `if` followed by more statements, with one branch
that falls through, is fine: the converter moves those statements into that
branch.)"""
import autograph_cli.tf as tf


@tf.function
def sign_without_default(x):
  if x > 0:
    return 1
  elif x < 0:  # expect: AG105
    return -1


@tf.function
def guard_clause_at_the_end(x):
  y = x * 2
  if tf.reduce_sum(x) < 0:  # expect: AG105
    return tf.zeros_like(x)


@tf.function
def two_open_branches(x):
  if x > 0:
    y = x
  elif x < -5:  # expect: AG105
    y = -x
  else:
    return -x
  return y * 2


# ---- clean variants ---------------------------------------------------------

@tf.function
def sign(x):
  # samples/early_return.py: the statement after the chain moves into its open branch.
  if x > 0:
    return 1
  elif x < 0:
    return -1
  return 0


@tf.function
def guard_clause(x):
  if tf.reduce_sum(x) < 0:
    return tf.zeros_like(x)
  return x


@tf.function
def else_returns(x):
  if x > 0:
    y = x
  else:
    return -x
  return y * 2

@tf.function
def every_branch(x):
  # Seed 004, simple_relu.
  if tf.greater(x, 0):
    return x
  else:
    return 0


@tf.function
def result_variable(x):
  if tf.reduce_sum(x) < 0:
    y = tf.zeros_like(x)
  else:
    y = x
  return y


@tf.function
def python_guards(x, mask=None, n=0):
  if mask is None:
    return x
  if n == 0:
    return x * mask
  return x


@tf.function
def in_a_staged_loop(x, threshold):
  # samples/early_return.py, first_above: a loop carries the return value.
  for i in tf.range(tf.size(x)):
    if x[i] > threshold:
      return i
  return -1

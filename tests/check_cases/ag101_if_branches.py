"""AG101: a variable assigned in only some branches of an `if` whose condition
may be a tensor, and used after it."""
import autograph_cli.tf as tf


@tf.function
def seed_one_branch():
  # Seed 000: "Throws an error because both branches need to define `x`."
  if tf.constant(True):
    x = tf.ones([3, 3])
  return x  # expect: AG101


@tf.function
def elif_chain(x):
  if x > 0:
    y = 1
  elif x < 0:
    y = -1
  return y  # expect: AG101


@tf.function
def parameter_condition(x, flag):
  if flag:  # a parameter may be a tensor
    z = x * 2
  else:
    tf.print(x)
  return z + 1  # expect: AG101


@tf.function
def reported_once(x):
  if x > 0:
    y = x
  tf.print(y)  # expect: AG101
  return y


@tf.function
def augmented_use(x):
  if tf.reduce_sum(x) > 0:
    total = x
  total += 1  # expect: AG101
  return total


@tf.function
def nested_in_loop(n):
  for i in tf.range(n):
    if i > 2:
      last = i
    tf.print(last)  # expect: AG101


# ---- clean variants ---------------------------------------------------------

@tf.function
def both_branches(x):
  if x > 0:
    y = x
  else:
    y = -x
  return y


@tf.function
def defined_before(x):
  y = tf.zeros_like(x)
  if tf.reduce_sum(x) > 0:
    y = x
  return y


@tf.function
def python_conditions(x, n=3):
  if isinstance(x, int):
    a = x
  if x is None:
    b = 0
  if n > 2:  # `n` defaults to a literal: a Python hyperparameter
    c = 1
  if 1 < 2:
    d = 2
  return a, b, c, d


@tf.function
def not_used_after(x):
  if x > 0:
    y = x * 2
    tf.print(y)
  return x


@tf.function
def other_branch_returns(x):
  # Not AG101 (the returning branch never reaches the use; the
  # return after it moves into the else branch).
  if x > 0:
    return x
  else:
    y = -x
  return y


@tf.function
def reassigned_before_use(x):
  if x > 0:
    y = x
  y = 3
  return y


@tf.function
def used_only_in_lambda(x):
  if x > 0:
    y = x
  return lambda: y


@tf.function
def same_condition_guards_the_use(x, training):
  if training:
    mask = tf.ones_like(x)
  x = x + 1
  if training:
    x = x * mask
  return x


@tf.function
def same_condition_other_branch(x, training):
  if training:
    pass
  else:
    scale = 2.0
  if training:
    return x
  else:
    return x * scale


class Dense:
  @tf.function
  def __call__(self, x):
    # Attributes of `self` are taken for Python configuration.
    if self.use_bias:
      b = self.bias
    for layer in self.layers:
      out = layer(x)
    if self.use_bias:
      out = out + b
    return out

"""AG105: a staged `if` returns a value on some paths and the function can
reach its end (returning None) on others; TensorFlow raises "the else branch
must also have a return statement", and so does the runtime."""
import autograph_cli.tf as tf


@tf.function
def clip_positive(x):
  if x > 0:  # expect: AG105
    return x


@tf.function
def nested(x):
  if x > 0:
    if x < 5:  # expect: AG105
      return x
  else:
    return x * x * x


@tf.function
def maybe_tensor_condition(flag):
  # a parameter may be a tensor: the checker cannot tell from here
  if flag:  # expect: AG105
    return 1


# ---- clean ----------------------------------------------------------------

@tf.function
def every_path_returns(x):
  if x > 0:
    return x
  return -x


@tf.function
def return_in_staged_loop(x):
  # returns inside staged loops are tracked by a flag, not folded
  for i in tf.range(x):
    if i > 3:
      return i
  return -1

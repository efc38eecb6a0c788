"""AG401-AG404: constructs the converter leaves unconverted, in staged functions."""
import autograph_cli.tf as tf


@tf.function
def generator(n):
  for i in tf.range(n):
    yield i  # expect: AG401
  yield n


@tf.function
def delegating(xs):
  yield from xs  # expect: AG401


@tf.function
def uses_locals(x):
  y = x + 1
  return locals()  # expect: AG402


@tf.function
def uses_vars_eval_exec(x):
  names = vars()  # expect: AG402
  exec("y = 1")  # expect: AG402
  return eval("x + 1")  # expect: AG402


@tf.function
def return_in_finally(x):
  try:
    x = x + 1
  finally:
    if x > 0:
      return x  # expect: AG403
  return -x


@tf.function
def break_in_finally(n):
  for i in range(n):
    try:
      pass
    finally:
      if i > 2:
        break  # expect: AG403
      continue  # expect: AG403
  return n


@tf.function
async def coroutine(x):  # expect: AG404
  return x


# ---- clean variants ---------------------------------------------------------

@tf.function
def vars_of_an_object(o):
  return vars(o)


@tf.function
def loop_inside_finally(n):
  try:
    pass
  finally:
    for i in range(n):
      if i > 2:
        break
  return n


@tf.function
def nested_generator(n):
  def gen():
    yield n
  return list(gen())


def plain_generator(n):
  yield n  # not staged


@tf.function
def shadowed_eval(x):
  def eval(v):
    return v
  return eval(x)

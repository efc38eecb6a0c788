"""AG201: mutating a list, dict or set that lives outside the staged function."""
import autograph_cli.tf as tf

external_list = []
CACHE = {}


@tf.function
def side_effect(x):
  # Seed 001: "The list append only happened once!"
  print('Python side effect')
  external_list.append(x)  # expect: AG201


l = []
v = tf.Variable(0)


@tf.function
def g(x):
  # Seed 002: the line marked "Caution! Doesn't work."
  for i in x:
    tf.compat.v1.py_func(lambda i: l.append(i))(i)  # Works
    l.append(i)  # expect: AG201


@tf.function
def leaky_function():
  # Seed 001: "mutating an external Python collection" (decorated here).
  a = tf.constant(1)
  external_list.append(a)  # expect: AG201


@tf.function
def memoize(k, x):
  CACHE[k] = x  # expect: AG201
  del CACHE[k]  # expect: AG201
  CACHE.update({k: x})  # expect: AG201
  return x


@tf.function
def accumulate(acc, x):
  acc.extend([x, x])  # expect: AG201
  return x


class Recorder:
  def __init__(self):
    self.history = []

  @tf.function
  def __call__(self, x):
    self.history.append(x)  # expect: AG201
    return x


# ---- clean variants ---------------------------------------------------------

@tf.function
def local_list(n):
  squares = []
  for i in tf.range(n):
    squares.append(i * i)
  return squares


state = []


@tf.function
def fn(x):
  # Seed 000: created only on the first call.
  if not state:
    state.append(tf.Variable(2.0 * x))
    state.append(tf.Variable(state[0] * 3.0))
  return state[0] * x * state[1]


def side_effect_callback(x):
  external_list.append(x)  # not staged: a tf.py_function callback


@tf.function
def via_py_function(x):
  tf.py_function(side_effect_callback, inp=[x], Tout=[])


@tf.function
def module_functions(x):
  return tf.add(x, 1)


@tf.function
def variables(x):
  v.assign_add(x)
  return v


@tf.function
def rebound_parameter(acc, x):
  acc = list(acc)
  acc.append(x)
  return acc


@tf.function
def comprehension(xs):
  return [y.pop() for y in [[1], [2]]]


@tf.function
def keyword_arguments(x, **kwargs):
  scale = kwargs.pop("scale", 1.0)  # a fresh dict on every call
  kwargs["seen"] = True
  return x * scale

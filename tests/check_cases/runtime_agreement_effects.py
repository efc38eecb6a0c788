"""The side-effect rules agree with the runtime: for each scenario, a function
marked `# expect:` behaves differently staged and eagerly (the pitfall the
seeds describe), and the unmarked ones behave the same.
`SCENARIOS` maps each staged function to a scenario that calls it afresh and
returns what a user would observe; tests/test_check.py runs each scenario
eagerly (`tf.config.run_functions_eagerly(True)`) and then staged."""
import autograph_cli.tf as tf

external_list = []


@tf.function
def side_effect(x):
  # Seed 001: "The list append only happened once!"
  external_list.append(x)  # expect: AG201


def side_effect_callback(x):
  external_list.append(x)


@tf.function
def via_py_function(x):
  tf.py_function(side_effect_callback, inp=[x], Tout=[])


def count_appends(fn):
  def scenario():
    external_list.clear()
    for _ in range(3):
      fn(1)
    return len(external_list)
  return scenario


class Model(tf.Module):
  def __init__(self):
    self.v = tf.Variable(0)
    self.counter = 0

  @tf.function
  def __call__(self):
    # Seed 001: the Python counter is captured during the first trace.
    if self.counter == 0:
      self.counter += 1  # expect: AG203
      self.v.assign_add(1)
    return self.v


class Count(tf.Module):
  def __init__(self):
    self.count = None

  @tf.function
  def __call__(self):
    if self.count is None:
      self.count = tf.Variable(0)
    return self.count.assign_add(1)


def three_calls(cls):
  def scenario():
    m = cls()
    return [int(m()) for _ in range(3)]
  return scenario


@tf.function
def buggy_consume_next(iterator):
  # Seed 001: "This reuses the first value from the iterator".
  return next(iterator) * 1  # expect: AG204


def consume_python_iterator():
  iterator = iter([1, 2, 3])
  return [int(buggy_consume_next(iterator)) for _ in range(3)]


@tf.function
def buggy_add():
  # Seed 001: "Depending on Python global and free variables".
  return 1 + foo  # expect: AG205


@tf.function
def recommended_add(foo):
  return 1 + foo


def rebind_foo(call):
  def scenario():
    global foo
    out = []
    for value in (1, 100):
      foo = value
      out.append(int(call()))
    return out
  return scenario


foo = 1
_leak = None


@tf.function
def leaky_function(a):
  # Seed 001: "Bad - leaks local tensor".
  global _leak
  _leak = a + 1  # expect: AG202
  return a + 2


def leak_scenario():
  leaky_function(tf.constant(1))
  try:
    return int(_leak.numpy())
  except Exception as e:
    return type(e).__name__


@tf.function
def assigns_variable(x):
  counter.assign_add(x)
  return counter.read_value()


counter = tf.Variable(0)


def variable_scenario():
  counter.assign(0)
  return [int(assigns_variable(1)) for _ in range(3)]


SCENARIOS = {
    "side_effect": count_appends(side_effect),
    "via_py_function": count_appends(via_py_function),
    "Model.__call__": three_calls(Model),
    "Count.__call__": three_calls(Count),
    "buggy_consume_next": consume_python_iterator,
    "buggy_add": rebind_foo(buggy_add),
    "recommended_add": rebind_foo(lambda: recommended_add(foo)),
    "leaky_function": leak_scenario,
    "assigns_variable": variable_scenario,
}

"""AG202: writing a `global` or `nonlocal` name inside a staged function."""
import autograph_cli.tf as tf

x = None


@tf.function
def leaky_function(a):
  # Seed 001: "Bad - leaks local tensor".
  global x
  x = a + 1  # expect: AG202
  return a + 2


COUNT = 0


@tf.function
def counted(a):
  global COUNT
  COUNT += 1  # expect: AG202
  COUNT += 1
  return a


def make_counter():
  calls = 0

  @tf.function
  def step(a):
    nonlocal calls
    calls += 1  # expect: AG202
    return a

  return step


# ---- clean variants ---------------------------------------------------------

@tf.function
def reads_global(a):
  global COUNT
  return a + COUNT


@tf.function
def local_shadow(a):
  x = a + 1
  return x


_table = None


@tf.function
def singleton_global(a):
  global _table
  if _table is None:
    _table = tf.Variable(tf.zeros([3]))
  return _table.assign_add(a)

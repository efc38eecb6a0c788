"""AG204: `next()` on a Python iterator passed in as an argument."""
import autograph_cli.tf as tf

external_var = tf.Variable(0)


@tf.function
def buggy_consume_next_000(iterator):
  # Seed 000: "This reuses the first value from the iterator".
  external_var.assign_add(next(iterator))  # expect: AG204
  tf.print("Value of external_var:", external_var)


iterator = iter([0, 1, 2, 3])
buggy_consume_next_000(iterator)


@tf.function
def buggy_consume_next(iterator):
  # Seed 001.
  tf.print("Value:", next(iterator))  # expect: AG204


iterator = iter([1, 2, 3])
buggy_consume_next(iterator)


@tf.function
def step(batches):
  return next(batches)  # expect: AG204


def train_loop(data):
  batches = iter([1, 2, 3])
  for _ in range(3):
    step(batches)


@tf.function
def take(xs, n):
  return next(xs) * n  # expect: AG204


def numbers():
  yield 1


take((x * 2 for x in range(3)), 2)
take(xs=numbers(), n=1)


class Reader:
  def __init__(self):
    self.lines = iter(["a", "b"])

  @tf.function
  def read(self):
    return next(self.lines)  # expect: AG204


# ---- clean variants ---------------------------------------------------------

@tf.function
def good_consume_next(iterator):
  # Seed 001: "This is ok, iterator is a tf.data.Iterator".
  tf.print("Value:", next(iterator))


ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
iterator = iter(ds)
good_consume_next(iterator)
good_consume_next(iter(tf.data.Dataset.range(3)))


@tf.function
def annotated(iterator: tf.data.Iterator):
  return next(iterator)


@tf.function
def no_visible_caller(batches):
  # An argument of unknown origin may well be a tf.data iterator.
  return next(batches)


@tf.function
def distributed_step(iterator):
  return next(iterator)


def run(dataset):
  it = iter(dataset)
  distributed_step(it)


@tf.function
def local_iterator(xs):
  it = iter([1, 2, 3])
  return next(it)


class DataReader:
  def __init__(self, dataset):
    self.batches = iter(dataset)

  @tf.function
  def read(self):
    return next(self.batches)

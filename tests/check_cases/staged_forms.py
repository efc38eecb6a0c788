"""Which functions are staged: every way of applying the runtime's `function`.
Each probe creates a tf.Variable on every call (AG301) so that being checked
shows."""
import functools

import autograph_cli
import autograph_cli.tf
import autograph_cli.tf as tf
import mylib
from autograph_cli.tf import function
from autograph_cli.tf import function as tff
from autograph_cli.runtime.function import function as runtime_function


@tf.function
def plain_decorator(x):
  return tf.Variable(x)  # expect: AG301


@tf.function()
def empty_call(x):
  return tf.Variable(x)  # expect: AG301


@tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
def with_signature(x):
  return tf.Variable(x)  # expect: AG301


@function
def imported_name(x):
  return tf.Variable(x)  # expect: AG301


@tff
def imported_alias(x):
  return tf.Variable(x)  # expect: AG301


@function(autograph=True)
def imported_name_called(x):
  return tf.Variable(x)  # expect: AG301


@autograph_cli.tf.function
def dotted(x):
  return tf.Variable(x)  # expect: AG301


@runtime_function
def runtime_module(x):
  return tf.Variable(x)  # expect: AG301


def wrapped_later(x):
  return tf.Variable(x)  # expect: AG301


wrapped = tf.function(wrapped_later)


def wrapped_by_keyword(x):
  return tf.Variable(x)  # expect: AG301


also_wrapped = tf.function(func=wrapped_by_keyword, autograph=True)


def wrapped_in_main(x):
  return tf.Variable(x)  # expect: AG301


def outer():
  @tf.function
  def inner(x):
    return tf.Variable(x)  # expect: AG301

  def local_helper(x):
    return tf.Variable(x)  # expect: AG301

  return inner, tf.function(local_helper)


class Layer:
  @tf.function
  def method(self, x):
    return tf.Variable(x)  # expect: AG301

  @staticmethod
  @tf.function
  def static(x):
    return tf.Variable(x)  # expect: AG301


# ---- not staged ---------------------------------------------------------------

def undecorated(x):
  return tf.Variable(x)


@functools.lru_cache()
def other_decorator(x):
  return tf.Variable(x)


@mylib.function
def unrelated_module_function(x):
  return tf.Variable(x)


def wrapped_by_other(x):
  return tf.Variable(x)


other = mylib.function(wrapped_by_other)


if __name__ == "__main__":
  tf.function(wrapped_in_main)(1.0)

"""Staged-function detection with TensorFlow's own names, and through the
`staged` option (the test reads the `# staged:` line below)."""
# staged: Model.step
import tensorflow
from tensorflow import function as tf_function


@tensorflow.function
def via_tensorflow(x):
  return tensorflow.Variable(x)  # expect: AG301


@tf_function
def via_alias(x):
  return tensorflow.Variable(x)  # expect: AG301


class Model:
  def step(self, x):
    # Staged through configuration: `staged={"Model.step"}` in the test.
    return tensorflow.Variable(x)  # expect: AG301

  def not_named(self, x):
    return tensorflow.Variable(x)

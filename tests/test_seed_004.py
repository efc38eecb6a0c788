"""Seed 004 ("Introduction to graphs and tf.function"): its cells with
`import autograph_cli.tf as tf`, and the outputs the notebook prints."""
from __future__ import annotations

import autograph_cli.tf as tf


def test_functions_and_the_functions_they_call(capsys):
    def a_regular_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    a_function_that_uses_a_graph = tf.function(a_regular_function)
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)
    orig_value = a_regular_function(x1, y1, b1).numpy()
    tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()
    assert orig_value == tf_function_value

    def inner_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    @tf.function
    def outer_function(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return inner_function(x, y, b)

    print(repr(outer_function(tf.constant([[1.0, 2.0]])).numpy()))

    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    tf_simple_relu = tf.function(simple_relu)
    print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
    print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
    graph_def = tf_simple_relu.get_concrete_function(tf.constant(1)).graph.as_graph_def()
    assert [n.name for n in graph_def.node][:1] == ["x"] and "cond" in [n.name for n in graph_def.node]
    assert capsys.readouterr().out == (
        "array([[12.]], dtype=float32)\nFirst branch, with graph: 1\nSecond branch, with graph: 0\n"
    )


def test_polymorphism(capsys):
    @tf.function
    def my_relu(x):
        return tf.maximum(0.0, x)

    print(my_relu(tf.constant(5.5)))
    print(my_relu([1, -1]))
    print(my_relu(tf.constant([3.0, -3.0])))
    print(my_relu(tf.constant(-2.5)))
    print(my_relu(tf.constant([-1.0, 1.0])))
    print(my_relu.pretty_printed_concrete_signatures())
    assert capsys.readouterr().out == """\
tf.Tensor(5.5, shape=(), dtype=float32)
tf.Tensor([1. 0.], shape=(2,), dtype=float32)
tf.Tensor([3. 0.], shape=(2,), dtype=float32)
tf.Tensor(0.0, shape=(), dtype=float32)
tf.Tensor([0. 1.], shape=(2,), dtype=float32)
my_relu(x)
  Args:
    x: float32 Tensor, shape=()
  Returns:
    float32 Tensor, shape=()

my_relu(x=[1, -1])
  Returns:
    float32 Tensor, shape=(2,)

my_relu(x)
  Args:
    x: float32 Tensor, shape=(2,)
  Returns:
    float32 Tensor, shape=(2,)
"""


def test_graph_vs_eager_execution(capsys):
    @tf.function
    def get_MSE(y_true, y_pred):  # noqa: N802 - the seed's name
        print("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    y_true = tf.constant([7, 2, 7, 5, 2])
    y_pred = tf.constant([9, 9, 0, 8, 8])
    print(repr(get_MSE(y_true, y_pred)))
    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    tf.config.run_functions_eagerly(True)
    try:
        error = get_MSE(y_true, y_pred)
        error = get_MSE(y_true, y_pred)
        error = get_MSE(y_true, y_pred)
    finally:
        tf.config.run_functions_eagerly(False)
    print(repr(error))
    assert capsys.readouterr().out == (
        "Calculating MSE!\n<tf.Tensor: shape=(), dtype=int32, numpy=29>\n"
        + "Calculating MSE!\n" * 3
        + "<tf.Tensor: shape=(), dtype=int32, numpy=29>\n"
    )


def test_non_strict_execution(capsys):
    def unused_return_eager(x):
        tf.gather(x, [1])  # unused
        return x

    try:
        print(unused_return_eager(tf.constant([0.0])))
    except tf.errors.InvalidArgumentError as e:
        print(f"{type(e).__name__}: {e}")

    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # unused
        return x

    print(unused_return_graph(tf.constant([0.0])))
    assert capsys.readouterr().out == (
        "InvalidArgumentError: indices[0] = 1 is not in [0, 1) [Op:GatherV2]\n"
        "tf.Tensor([0.], shape=(1,), dtype=float32)\n"
    )


def test_power_speedup_example_computes_the_same():
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    power_as_graph = tf.function(power)
    assert (power(x, 5).numpy() == power_as_graph(x, 5).numpy()).all()


def test_when_is_a_function_tracing(capsys):
    @tf.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")
        return x * x + tf.constant(2)

    print(a_function_with_python_side_effect(tf.constant(2)))
    print()
    print(a_function_with_python_side_effect(tf.constant(3)))
    print(a_function_with_python_side_effect(2))
    print()
    print(a_function_with_python_side_effect(3))
    assert capsys.readouterr().out == """\
Tracing!
tf.Tensor(6, shape=(), dtype=int32)

tf.Tensor(11, shape=(), dtype=int32)
Tracing!
tf.Tensor(6, shape=(), dtype=int32)

Tracing!
tf.Tensor(11, shape=(), dtype=int32)
"""

"""Seed 003 (the tf.function notebook with its printed outputs), run with
`import autograph_cli.tf as tf`; stdout must be what the notebook shows.
The one difference: the exception class is ours, not tensorflow's."""
from __future__ import annotations

import contextlib
import traceback

import autograph_cli.tf as tf


@contextlib.contextmanager
def assert_raises(error_class):
    try:
        yield
    except error_class:
        print("Caught expected exception \n  {}:".format(error_class))
        traceback.print_exc(limit=2)  # to stderr, as in the notebook
    except Exception as e:
        raise e
    else:
        raise Exception("Expected {} to be raised but no error was raised!".format(error_class))


def test_cell_3_add(capsys):
    @tf.function
    def add(a, b):
        return a + b

    print(repr(add(tf.ones([2, 2]), tf.ones([2, 2]))))
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        result = add(v, 1.0)
    print(repr(tape.gradient(result, v)))

    @tf.function
    def dense_layer(x, w, b):
        return add(tf.matmul(x, w), b)

    print(repr(dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2]))))
    assert capsys.readouterr().out == """\
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[2., 2.],
       [2., 2.]], dtype=float32)>
<tf.Tensor: shape=(), dtype=float32, numpy=1.0>
<tf.Tensor: shape=(3, 2), dtype=float32, numpy=
array([[3., 3.],
       [3., 3.],
       [3., 3.]], dtype=float32)>
"""


def test_cells_6_to_8_polymorphism_and_signatures(capsys):
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a

    print(double(tf.constant(1)))
    print()
    print(double(tf.constant(1.1)))
    print()
    print(double(tf.constant("a")))
    print()

    print("Obtaining concrete trace")
    double_strings = double.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.string))
    print("Executing traced function")
    print(double_strings(tf.constant("a")))
    print(double_strings(a=tf.constant("b")))
    print("Using a concrete trace with incompatible types will throw an error")
    with assert_raises(tf.errors.InvalidArgumentError):
        double_strings(tf.constant(1))

    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        print("Tracing with", x)
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

    print(next_collatz(tf.constant([1, 2])))
    with assert_raises(ValueError):
        next_collatz(tf.constant([[1, 2], [3, 4]]))

    captured = capsys.readouterr()
    assert captured.out == """\
Tracing with Tensor("a:0", shape=(), dtype=int32)
tf.Tensor(2, shape=(), dtype=int32)

Tracing with Tensor("a:0", shape=(), dtype=float32)
tf.Tensor(2.2, shape=(), dtype=float32)

Tracing with Tensor("a:0", shape=(), dtype=string)
tf.Tensor(b'aa', shape=(), dtype=string)

Obtaining concrete trace
Tracing with Tensor("a:0", dtype=string)
Executing traced function
tf.Tensor(b'aa', shape=(), dtype=string)
tf.Tensor(b'bb', shape=(), dtype=string)
Using a concrete trace with incompatible types will throw an error
Caught expected exception 
  <class 'autograph_cli.runtime.errors.InvalidArgumentError'>:
Tracing with Tensor("x:0", shape=(None,), dtype=int32)
tf.Tensor([4 1], shape=(2,), dtype=int32)
Caught expected exception 
  <class 'ValueError'>:
"""
    # the tracebacks (stderr) end with the errors the notebook shows
    assert (
        "InvalidArgumentError: cannot compute __inference_double_" in captured.err
        and "as input #0(zero-based) was expected to be a string tensor but is a int32 tensor [Op:__inference_double_"
        in captured.err
    )
    assert """ValueError: Python inputs incompatible with input_signature:
  inputs: (
    tf.Tensor(
[[1 2]
 [3 4]], shape=(2, 2), dtype=int32))
  input_signature: (
    TensorSpec(shape=(None,), dtype=tf.int32, name=None))""" in captured.err

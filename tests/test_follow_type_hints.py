"""tf.function(experimental_follow_type_hints=True): arguments of parameters
annotated tf.Tensor become tensors before the trace cache is keyed, so
Python numbers passed there do not retrace; other parameters (and functions
without the option) keep the value-keyed behaviour."""
from __future__ import annotations  # annotations are strings: resolved in the function's globals

import numpy as np

import autograph_cli.tf as tf


def _calls(f, values, **kw):
    return [float(np.asarray(f(v, **kw))) for v in values]


def test_hinted_scalars_share_one_trace_and_compute_the_same():
    def body(x: tf.Tensor, scale: int = 2):
        return x * scale + 1.0

    hinted = tf.function(body, experimental_follow_type_hints=True)
    plain = tf.function(body)
    values = [1.0, 2.5, -3.0, 7.25]
    want = [v * 2 + 1.0 for v in values]
    assert _calls(hinted, values) == want
    assert hinted.experimental_get_tracing_count() == 1
    assert _calls(plain, values) == want
    assert plain.experimental_get_tracing_count() == len(values)  # the default: one trace per Python value
    # the parameter without the hint still keys by value
    hinted(1.0, scale=3)
    assert hinted.experimental_get_tracing_count() == 2


def test_hinted_argument_is_a_tensor_inside_the_function():
    seen = []

    @tf.function(experimental_follow_type_hints=True)
    def f(x: tf.Tensor, y):
        seen.append((tf.is_tensor(x), tf.is_tensor(y)))
        if x > 0:  # a staged cond: x is a tensor while tracing
            return x + 1
        return x - 1

    assert float(f(2, 0)) == 3.0 and float(f(-2, 0)) == -3.0
    assert seen == [(True, False)]  # traced once, y stayed a Python value
    assert f(2, 0).dtype == tf.int32


def test_varargs_keyword_only_and_methods_follow_hints():
    @tf.function(experimental_follow_type_hints=True)
    def total(*xs: tf.Tensor, bias: tf.Tensor = 0.0):
        return tf.add_n(list(xs)) + bias

    assert float(total(1.0, 2.0, bias=0.5)) == 3.5
    assert float(total(3.0, 4.0, bias=1.5)) == 8.5
    assert total.experimental_get_tracing_count() == 1

    class M(tf.Module):
        @tf.function(experimental_follow_type_hints=True)
        def step(self, x: tf.Tensor):
            return x * 3

    m = M()
    assert [int(m.step(i)) for i in range(4)] == [0, 3, 6, 9]
    assert M.step.experimental_get_tracing_count() == 1


def test_tensors_and_input_signature_are_left_alone():
    @tf.function(experimental_follow_type_hints=True)
    def f(x: tf.Tensor):
        return x * 2

    np.testing.assert_array_equal(f(tf.constant([1, 2])).numpy(), [2, 4])
    np.testing.assert_array_equal(f(np.array([1.5, 2.0], np.float32)).numpy(), [3.0, 4.0])

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)], experimental_follow_type_hints=True)
    def g(x: tf.Tensor):
        return x + 1

    assert float(g(1.0)) == 2.0 and float(g(5.0)) == 6.0
    assert g.experimental_get_tracing_count() == 1

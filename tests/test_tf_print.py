"""tf.print renders like TensorFlow: structures via pprint with tensors in
place, string tensors quoted (a lone scalar string is not), summarized
tensors; Python print of a symbolic tensor runs once, while tracing."""
from __future__ import annotations

import sys

import pytest

import autograph_cli.tf as tf


def _printed(capsys, *args, **kwargs):
    tf.print(*args, **kwargs)
    return capsys.readouterr().err


@pytest.mark.parametrize(
    "args,kwargs,want",
    [
        (({"a": tf.constant(1), "b": [tf.constant(2.5), "s"]},), {}, "{'a': 1, 'b': [2.5, 's']}\n"),
        (("x", tf.constant("a"), [tf.constant("b")]), {}, 'x "a" ["b"]\n'),
        ((tf.constant("lone"),), {}, "lone\n"),
        ((tf.constant(["a", "b"]),), {}, '["a" "b"]\n'),
        ((tf.range(10),), {}, "[0 1 2 ... 7 8 9]\n"),
        ((tf.range(10),), {"summarize": -1}, "[0 1 2 3 4 5 6 7 8 9]\n"),
        ((tf.range(6),), {}, "[0 1 2 3 4 5]\n"),
        (([1, 2], 3, "s", True, tf.constant([True, False])), {"sep": "|"}, "[1, 2]|3|s|True|[1 0]\n"),
        ((tf.constant([[1.5, 2.0], [0.1, -3.0]]),), {}, "[[1.5 2]\n [0.1 -3]]\n"),
        (((tf.constant(1), "t"),), {"end": "!"}, "(1, 't')!"),
        (({"z": 1, "a": tf.constant(2)},), {}, "{'a': 2, 'z': 1}\n"),
    ],
)
def test_tf_print_formats_like_tensorflow(capsys, args, kwargs, want):
    assert _printed(capsys, *args, **kwargs) == want


def test_summarized_matrix(capsys):
    out = _printed(capsys, tf.reshape(tf.range(80), [8, 10]))
    assert out == (
        "[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]\n ...\n"
        " [50 51 52 ... 57 58 59]\n [60 61 62 ... 67 68 69]\n [70 71 72 ... 77 78 79]]\n"
    )


def test_tf_print_in_a_function_prints_at_every_call_and_print_at_trace(capsys):
    @tf.function
    def f(x):
        print(x)
        tf.print("in f", {"x": x, "y": [x * 2, "t"]}, output_stream=sys.stdout)
        return x + 1

    f(tf.constant(3))
    f(tf.constant(4))
    out = capsys.readouterr().out
    assert out == (
        'Tensor("x:0", shape=(), dtype=int32)\n'
        "in f {'x': 3, 'y': [6, 't']}\n"
        "in f {'x': 4, 'y': [8, 't']}\n"
    )

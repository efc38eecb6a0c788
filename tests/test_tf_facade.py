"""Behaviour of names the tf facade defines itself (not the runtime's ops)."""
from __future__ import annotations

import pytest

import autograph_cli.tf as tf


@pytest.mark.parametrize("check, good, bad", [
    (tf.debugging.assert_equal, (3, 3), (3, 4)),
    (tf.debugging.assert_greater, (4, 3), (3, 3)),
    (tf.debugging.assert_less, (3, 4), (4, 4)),
    (tf.debugging.assert_positive, (1,), (0,)),
    (tf.debugging.assert_non_negative, (0,), (-1,)),
    (tf.debugging.assert_negative, (-1,), (0,)),
    (tf.debugging.assert_non_positive, (0,), (1,)),
    (tf.debugging.assert_greater_equal, (3, 3), (2, 3)),
    (tf.debugging.assert_less_equal, (3, 3), (4, 3)),
])
def test_debugging_asserts_eager_and_staged(check, good, bad):
    args = [tf.constant(a) for a in good]
    assert check(*args, message="nope") is None
    with pytest.raises(tf.errors.InvalidArgumentError, match="nope"):
        check(*[tf.constant(a) for a in bad], message="nope")

    @tf.function
    def staged(*xs):
        check(*xs, message="staged nope")
        return xs[0] + 1

    assert int(staged(*args)) == good[0] + 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="staged nope"):
        staged(*[tf.constant(a) for a in bad])


def test_compat_v1_helpers():
    assert tf.compat.v1.to_float(tf.constant(3)).dtype == tf.float32
    v = tf.Variable(1.0)
    assert tf.compat.v1.assign(v, 5.0) is not None and float(v) == 5.0
    init = tf.compat.v1.glorot_uniform_initializer(seed=1)
    w = init([4, 6])
    assert tuple(w.shape) == (4, 6) and float(tf.reduce_max(tf.abs(w))) <= (6.0 / 10) ** 0.5

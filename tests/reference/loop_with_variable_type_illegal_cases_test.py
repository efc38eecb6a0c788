"""Loop variables that change Python type, dtype, shape or structure
(reference: loop_with_variable_type_illegal_cases_test.py)."""
from __future__ import annotations

import re

import pytest

import autograph_cli.tf as tf


def cond_becomes_tensor():
    n = tf.constant(0, dtype=tf.int32)
    go = True
    while go:
        go = tf.constant(True)
    return n


def while_dtype_changes():
    n = tf.constant(0, dtype=tf.int32)
    while tf.constant(True):
        n = tf.constant(0, dtype=tf.float32)
    return n


def while_dtype_changes_then_break():
    n = tf.constant(0, dtype=tf.int32)
    while tf.constant(True):
        n = tf.constant(0, dtype=tf.float32)
        break
    return n


def for_dtype_changes(xs):
    n = tf.constant(0, dtype=tf.int32)
    for _ in xs:
        n = tf.constant(0, dtype=tf.float32)
    return n


def for_dtype_changes_then_break(xs):
    n = tf.constant(0, dtype=tf.int32)
    for _ in xs:
        n = tf.constant(0, dtype=tf.float32)
        break
    return n


def while_shape_changes():
    t = tf.constant([1])
    while tf.constant(True):
        t = tf.constant([1, 1])
    return t


def for_shape_changes(xs):
    t = tf.constant([1])
    for _ in xs:
        t = tf.constant([1, 1])
    return t


def while_shape_erased():
    t = tf.constant([1])
    while tf.constant(True):
        t = tf.range(tf.random.uniform((), 2, 3, dtype=tf.int32))
    return t


def for_shape_erased(xs):
    t = tf.constant([1])
    for _ in xs:
        t = tf.range(tf.random.uniform((), 2, 3, dtype=tf.int32))
    return t


def while_breaks_invariant():
    t = tf.constant([1])
    while tf.constant(True):
        tf.autograph.experimental.set_loop_options(shape_invariants=((t, tf.TensorShape([1])),))
        t = tf.range(tf.random.uniform((), 2, 3, dtype=tf.int32))
    return t


def for_breaks_invariant(xs):
    t = tf.constant([1])
    for _ in xs:
        tf.autograph.experimental.set_loop_options(shape_invariants=((t, tf.TensorShape([1])),))
        t = tf.range(tf.random.uniform((), 2, 3, dtype=tf.int32))
    return t


def while_structure_changes():
    s = {"a": tf.constant(0)}
    while tf.constant(True):
        s = tf.constant(7.0)
    return s


def for_structure_changes(xs):
    s = [tf.constant(0)]
    for _ in xs:
        s = s + [tf.constant(0)]
    return s


def _tf_range(xs):
    return tf.range(len(xs))


def _dataset(xs):
    return tf.data.Dataset.from_tensor_slices(xs)


def _dataset_iterator(xs):
    return iter(tf.data.Dataset.from_tensor_slices(xs))


ITERABLES = (tf.constant, _tf_range, _dataset, _dataset_iterator)
DTYPE = "'n' has dtype int32 before the loop, but dtype float32 after"


def test_while_with_variable_py_type(ref):
    # as TensorFlow: a Python `while` cannot become a staged one midway
    for exc in (NotImplementedError, TypeError):
        ref.raises(exc, re.compile(r"^\S+_test\.py:15: .*condition of while loop started as non\-Tensor, then "
                                   r"changed to Tensor.*", re.DOTALL), cond_becomes_tensor)


def test_while_with_variable_dtype(ref):
    ref.raises(TypeError, DTYPE, while_dtype_changes)


def test_while_with_variable_dtype_and_early_stopping(ref):
    ref.raises(TypeError, DTYPE, while_dtype_changes_then_break)


@pytest.mark.parametrize("make", ITERABLES)
def test_for_with_variable_dtype(ref, make):
    ref.raises(TypeError, DTYPE, for_dtype_changes, make([1, 2, 3]))


@pytest.mark.parametrize("make", ITERABLES)
def test_for_with_variable_dtype_and_early_stopping(ref, make):
    ref.raises(TypeError, DTYPE, for_dtype_changes_then_break, make([1, 2, 3]))


def test_while_with_variable_shape(ref):
    ref.raises(ValueError, r"'t' has shape \(1,\) before the loop, but shape \(2,\) after", while_shape_changes)


@pytest.mark.parametrize("make", (tf.constant, _tf_range, _dataset_iterator))
def test_for_with_variable_shape(ref, make):
    ref.raises(ValueError, r"'t' has shape \(1,\) before the loop, but shape \(2,\) after", for_shape_changes,
               make([1, 2, 3]))


def test_while_with_shape_erasure(ref):
    ref.raises(ValueError, r"'t' has shape \(1,\) before the loop, but shape \(None,\) after", while_shape_erased)


@pytest.mark.parametrize("make", (tf.constant, _tf_range, _dataset_iterator))
def test_for_with_shape_erasure(ref, make):
    ref.raises(ValueError, r"'t' has shape \(1,\) before the loop, but shape \(None,\) after", for_shape_erased,
               make([1, 2, 3]))


def test_while_with_shape_invariant_violation(ref):
    ref.raises(ValueError, r"'t' has shape \(None,\) after one iteration, which does not conform",
               while_breaks_invariant)


@pytest.mark.parametrize("make", (tf.constant, _tf_range, _dataset_iterator))
def test_for_with_shape_invariant_violation(ref, make):
    ref.raises(ValueError, r"'t' has shape \(None,\) after one iteration, which does not conform",
               for_breaks_invariant, make([1, 2, 3]))


def test_while_with_variable_structure(ref):
    ref.raises(TypeError, "'s' does not have the same nested structure", while_structure_changes)


@pytest.mark.parametrize("make", ITERABLES)
def test_for_with_variable_structure(ref, make):
    ref.raises(TypeError, "'s' does not have the same nested structure", for_structure_changes, make([1, 2, 3]))


_ = re


def _distributed_dataset(xs):
    ds = tf.data.Dataset.from_tensor_slices([xs] * 2)
    return tf.distribute.MirroredStrategy().experimental_distribute_dataset(ds)


@pytest.mark.parametrize("target,error,regex", [
    (for_dtype_changes, TypeError, DTYPE),
    (for_shape_changes, ValueError, r"'t' has shape \(1,\) before the loop, but shape \(2,\) after"),
    (for_shape_erased, ValueError, r"'t' has shape \(1,\) before the loop, but shape \(None,\) after"),
    (for_breaks_invariant, ValueError, r"'t' has shape \(None,\) after one iteration, which does not conform"),
    (for_structure_changes, TypeError, "'s' does not have the same nested structure"),
])
def test_over_a_distributed_dataset(ref, target, error, regex):
    ref.raises(error, regex, target, _distributed_dataset([1, 2, 3]))

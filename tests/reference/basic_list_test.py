"""Lists built by append, read, updated and popped, in Python and staged
loops (reference: basic_list_test.py; its `ag` is tensorflow.python.autograph,
whose stack/set_element_type tf.autograph provides here).

TensorFlow's Feature.LISTS turns every `l = []` into a TensorList; here a list
becomes a TensorArray only when a staged loop appends to it (README), and a
list filled by a Python loop stays a Python list. Under Feature.LISTS,
`ag.stack(l, strict=False)` of such a list stacks it as TensorFlow's
TensorList: it needs the type `set_element_type` declared (ValueError
without, or when it is empty and its element shape is unknown); without the
feature it gives the list back as it is.
"""
from __future__ import annotations

import pytest

import autograph_cli.tf as tf

ag = tf.autograph


def no_declared_type(n):
    out = []
    for k in range(n):
        out.append(k)
    return ag.stack(out, strict=False)


def read_item():
    out = []
    out.append(1)
    out.append(2)
    out.append(3)
    ag.set_element_type(out, tf.int32)
    return 2 * out[1]


def write_item():
    out = []
    out.append(1)
    out.append(2)
    out.append(3)
    ag.set_element_type(out, tf.int32)
    out[1] = 5
    return ag.stack(out, strict=False)


def fill(n):
    out = []
    ag.set_element_type(out, tf.int32)
    for k in range(n):
        out.append(k)
    return ag.stack(out, strict=False)


def fill_rows(m, n):
    rows = []
    ag.set_element_type(rows, tf.int32)
    for _ in range(m):
        row = []
        ag.set_element_type(row, tf.int32)
        for j in range(n):
            row.append(j)
        rows.append(ag.stack(row, strict=False))
    return ag.stack(rows, strict=False)


def fibonacci_with_flips(n):
    out = []
    out.append(1)
    out.append(1)
    ag.set_element_type(out, tf.int32)
    for k in range(2, n):
        out.append(out[k - 1] + out[k - 2])
        out[k - 2] = -out[k - 2]
    return ag.stack(out, strict=False)


def pop_some(n):
    out = []
    out.append(1)
    out.append(2)
    out.append(3)
    out.append(4)
    ag.set_element_type(out, tf.int32, ())
    total = 0
    for _ in range(n):
        total += out.pop()
    return ag.stack(out, strict=False), total


def write_each(t, n):
    for k in range(n):
        t[k] = k
    return t


@pytest.fixture
def ref_lists(ref):
    ref.autograph_opts = tf.autograph.experimental.Feature.LISTS
    return ref


def test_tensor_mutation(ref_lists):
    ref_lists.converted_matches_native(write_each, [0] * 10, 10)


@pytest.mark.parametrize("target,args", [
    (read_item, ()), (write_item, ()), (no_declared_type, (3,)), (fill, (5,)), (fill_rows, (5, 3)),
    (fibonacci_with_flips, (4,)), (pop_some, (0,)), (pop_some, (2,)), (pop_some, (4,)), (fill, (0,)),
    (fill_rows, (0, 3))])
def test_basic(ref_lists, target, args):
    ref_lists.all_inputs_tensors = True
    ref_lists.matches_eager(target, *args)


@pytest.mark.parametrize("target,args", [(fill, (5,)), (fill_rows, (2, 3)), (pop_some, (4,))])
def test_python_lists_under_a_trace(ref_lists, target, args):
    # Feature.LISTS: a Python list is TensorFlow's TensorList, stacked to a tensor
    ref_lists.matches_eager(target, *args)


@pytest.mark.parametrize("target,args,regex", [
    (no_declared_type, (3,), "cannot stack a list without knowing its element type; use set_element_type"),
    (fill, (0,), "cannot stack an empty list whose element shape is unknown"),
    (fill_rows, (0, 3), "cannot stack an empty list whose element shape is unknown")])
def test_lists_feature_needs_the_element_type(ref_lists, target, args, regex):
    # as TensorFlow's: a TensorList of unknown element type (or, empty, of
    # unknown element shape) cannot be stacked
    with pytest.raises(ValueError, match=regex):
        ref_lists.function(target)(*args)


@pytest.mark.parametrize("target,args", [(no_declared_type, (3,)), (fill, (0,)), (fill_rows, (0, 3))])
def test_without_the_lists_feature_a_python_list_stays(ref, target, args):
    ref.matches_eager(target, *args)


def test_strict_stack_of_a_python_list_is_an_error():
    with pytest.raises(ValueError, match="must be stackable when strict=True"):
        ag.stack([1, 2])
    assert ag.stack(tf.constant([1, 2])).numpy().tolist() == [1, 2]


def returns_arrays(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for k in tf.range(n):
        ta = ta.write(k, k * k)
    return ta, {"again": ta}


def test_a_returned_tensor_array_is_stacked():
    out, nested = tf.function(returns_arrays)(tf.constant(3))
    assert out.numpy().tolist() == [0, 1, 4]
    assert nested["again"].numpy().tolist() == [0, 1, 4]


def test_a_tensor_array_is_not_subscriptable():
    ta = tf.TensorArray(tf.int32, size=2).write(0, 1)
    with pytest.raises(TypeError, match="not subscriptable"):
        ta[0]

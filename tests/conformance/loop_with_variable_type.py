"""Loop variables of many types: Python ints/floats, tuples, dicts, lists,
TensorArray, tensors with dtypes."""
import autograph_cli.tf as tf

from conformance.harness import Py, case, illegal


def python_int_becomes_tensor(n):
    s = 0
    for i in tf.range(n):
        s = s + i
    return s


def python_float_loop_var(n):
    s = 0.0
    for i in tf.range(n):
        s = s + tf.cast(i, tf.float32) * 0.5
    return s


def tuple_loop_var(n):
    t = (0, 1)
    for i in tf.range(n):
        t = (t[1], t[0] + t[1])
    return t


def dict_loop_var(n):
    d = {"a": 0, "b": 1}
    for i in tf.range(n):
        d = {"a": d["b"], "b": d["a"] + d["b"]}
    return d["a"], d["b"]


def tensor_array_loop_var(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, i * i)
    return ta.stack()


def tensor_array_fixed_size(n):
    ta = tf.TensorArray(tf.float32, size=3)
    for i in tf.range(3):
        ta = ta.write(i, tf.cast(i + n, tf.float32))
    return ta.stack()


def int64_loop_var(n):
    s = tf.constant(0, dtype=tf.int64)
    for i in tf.range(n):
        s += tf.cast(i, tf.int64)
    return s


def bool_loop_var(n):
    flag = False
    for i in tf.range(n):
        flag = tf.logical_not(flag)
    return flag


def python_value_unchanged_in_loop(n):
    k = 3
    s = 0
    for i in tf.range(n):
        s += k
    return s, k


def vector_loop_var(n):
    v = tf.zeros([3], dtype=tf.int32)
    for i in tf.range(n):
        v = v + 1
    return v


def list_rebuilt_same_length(n):
    l = [0, 0]
    for i in tf.range(n):
        l = [l[0] + i, l[1] - i]
    return l[0], l[1]


def while_with_two_types(n):
    i = 0
    x = 1.0
    while i < n:
        x = x * 2.0
        i += 1
    return i, x


def nested_tuple_loop_var(n):
    t = (0, (1, 2))
    for i in tf.range(n):
        t = (t[0] + 1, (t[1][1], t[1][0] + i))
    return t


def none_before_loop(n):
    v = None
    for i in tf.range(n):
        v = i
    return v


def python_loop_changes_type(n):
    v = None
    for i in range(n):
        v = i if v is None else v + i
    return v


CASES = [
    case(python_int_becomes_tensor, 4, 0),
    case(python_float_loop_var, 4),
    case(tuple_loop_var, 6, 0),
    case(dict_loop_var, 5),
    case(tensor_array_loop_var, 4),
    case(tensor_array_fixed_size, 2),
    case(int64_loop_var, 4),
    case(bool_loop_var, 3, 0),
    case(python_value_unchanged_in_loop, 3),
    case(vector_loop_var, 3),
    case(list_rebuilt_same_length, 4),
    case(while_with_two_types, 3),
    case(nested_tuple_loop_var, 3),
    illegal(none_before_loop, 3, raises=(ValueError, TypeError), match=r"'v'.*None|None.*'v'"),
    case(python_loop_changes_type, Py(3)),
]

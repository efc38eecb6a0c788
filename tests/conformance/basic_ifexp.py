"""Conditional expressions `a if c else b` on tensors and Python values."""
import autograph_cli.tf as tf

from conformance.harness import Py, case, illegal


def simple(x):
    return 1 if x > 0 else 0


def both_tensors(x):
    return x * 2 if x > 0 else x - 1


def python_cond(x, flag):
    return x + 1 if flag else x - 1


def nested(x):
    return 1 if x > 10 else (2 if x > 0 else 3)


def in_loop(n):
    s = 0
    for i in tf.range(n):
        s += i if i % 2 == 0 else -i
    return s


def side_effect_branches(x):
    l = []
    y = l.append(1) if x > 0 else l.append(2)
    return y is None


def ifexp_as_condition(x, y):
    if (x if x > y else y) > 5:
        return 1
    return 0


def float_branches(x):
    return 1.5 if x > 0 else 2.5


def ifexp_with_bool_result(x):
    return (x > 2) if x > 0 else (x < -2)


def ifexp_in_while_test(x):
    n = 0
    while (x if n < 3 else 0) > n:
        n += 1
    return n


def mixed_python_and_tensor(x):
    return x if x > 0 else 0


def different_dtypes(x):
    return 1 if x > 0 else 1.5


CASES = [
    case(simple, 3, -3),
    case(both_tensors, 3, -3),
    case(python_cond, (2, Py(True)), (2, Py(False))),
    case(nested, 20, 5, -5),
    case(in_loop, 5, 0),
    case(side_effect_branches, Py(1), Py(-1)),
    case(ifexp_as_condition, (3, 7), (1, 2)),
    case(float_branches, 1, -1),
    case(ifexp_with_bool_result, 3, 1, -3),
    case(ifexp_in_while_test, 5, 1),
    case(mixed_python_and_tensor, 4, -4),
    illegal(different_dtypes, 1, raises=(TypeError, ValueError), match=r"(?i)dtype|float|int"),
]

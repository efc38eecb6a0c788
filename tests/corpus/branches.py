"""Conditionals: if/elif/else, ternaries, and/or/not, walrus in conditions.

Every function here is run original vs converted by tests/test_differential.py
over CASES (hand-picked) and HYPOTHESIS (argument kinds, see
tests/_differential.py). LOG collects side effects; the harness clears it
before each call and compares it afterwards.
"""

LOG = []


def note(value, result=None):
    """Record an evaluation and return `result` (or `value`)."""
    LOG.append(value)
    return value if result is None else result


def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0


def classify(n):
    # A long elif chain with assignments and no returns inside.
    if n % 15 == 0:
        label = "fizzbuzz"
    elif n % 5 == 0:
        label = "buzz"
    elif n % 3 == 0:
        label = "fizz"
    else:
        label = str(n)
    return label


def if_without_else(x):
    y = 10
    if x > 3:
        y = x * 2
    if x < -3:
        y -= 1
        x = -x
    return x, y


def if_defines_in_one_branch(x):
    # Reading `z` raises UnboundLocalError when x <= 0: converted code must
    # raise the same exception with the same message.
    if x > 0:
        z = x + 1
    return z


def nested_ifs(a, b):
    if a > 0:
        if b > 0:
            r = "both"
        else:
            if b == 0:
                r = "a, b zero"
            else:
                r = "a only"
    else:
        if b > 0:
            r = "b only"
        elif b == a:
            r = "same"
        else:
            r = "none"
    return r


def if_with_print(x):
    if x % 2:
        print("odd", x)
    else:
        print("even", x)
    print("done")


def ternaries(x):
    a = "pos" if x > 0 else "neg" if x < 0 else "zero"
    b = (x if x % 2 else -x) if abs(x) > 2 else 0
    return a, b


def ternary_side_effects(x):
    # Only the chosen branch may be evaluated.
    return note("yes") if note(x > 0, x > 0) else note("no")


def short_circuit_and(x, y):
    r = note("a", x) and note("b", y) and note("c", x + y)
    return r


def short_circuit_or(x, y):
    r = note("a", x) or note("b", y) or note("c", 7)
    return r


def not_and_mixed(x, y):
    if not (note("x", x > 0) and note("y", y > 0)) or note("z", x == y):
        return "first"
    return "second"


def and_or_values(x, y):
    # and/or return the deciding operand, not a bool.
    return (x and y, x or y, not x, x and [] or "fallback", None or x or 0)


def truthiness_once():
    # bool() of the condition must be evaluated exactly once.
    class Flag:
        def __init__(self, value):
            self.value = value

        def __bool__(self):
            LOG.append(("bool", self.value))
            return self.value

    out = []
    if Flag(True):
        out.append(1)
    if not Flag(False):
        out.append(2)
    x = 1 if Flag(False) else 2
    out.append(x)
    while Flag(False):
        out.append("never")
    return out


def bool_raises(x):
    class Bad:
        def __bool__(self):
            raise ValueError("no truth value")  # raise-site

    if x > 0:
        value = Bad()
    else:
        value = 0
    if value:
        return "truthy"
    return "falsy"


def walrus_in_condition(values):
    out = []
    if (n := len(values)) > 3:
        out.append(("long", n))
    else:
        out.append(("short", n))
    i = 0
    while (item := values[i] if i < len(values) else None) is not None:
        out.append(item)
        i += 1
    return out, n, item


def compare_chains(a, b, c):
    if a < b < c:
        return "ascending"
    elif a == b == c:
        return "equal"
    elif a > b >= c:
        return "descending"
    return "mixed"


def conditional_reassign_param(x, flag):
    if flag:
        x = x * 3
    elif x:
        x = None
    return x


def isinstance_branches(value):
    if isinstance(value, bool):
        kind = "bool"
    elif isinstance(value, int):
        kind = "int"
    elif isinstance(value, str) and value:
        kind = "text"
    else:
        kind = type(value).__name__
    return kind


def if_pass_only(x):
    if x:
        pass
    else:
        pass
    return x


def if_del(x):
    y = x
    if x > 0:
        del y
    try:
        return y
    except NameError as e:
        return type(e).__name__, str(e)


CASES = {
    "sign": [(5,), (-2,), (0,)],
    "classify": [(n,) for n in range(1, 31)],
    "if_without_else": [(x,) for x in range(-6, 7)],
    "if_defines_in_one_branch": [(1,), (0,), (-5,)],
    "nested_ifs": [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)],
    "if_with_print": [(1,), (2,)],
    "ternaries": [(x,) for x in range(-4, 5)],
    "ternary_side_effects": [(1,), (0,), (-1,)],
    "short_circuit_and": [(0, 1), (1, 0), (1, 2), ("", "x"), ("a", "b")],
    "short_circuit_or": [(0, 0), (0, 3), (2, 0), ("", None)],
    "not_and_mixed": [(x, y) for x in (-1, 0, 2) for y in (-1, 0, 2)],
    "and_or_values": [(0, 1), (1, 0), (2, 3), ("", "s"), ([], [1])],
    "truthiness_once": [()],
    "bool_raises": [(1,), (-1,)],
    "walrus_in_condition": [([],), ([1, 2],), ([1, 2, 3, 4, 5],)],
    "compare_chains": [(1, 2, 3), (2, 2, 2), (3, 2, 2), (3, 1, 2)],
    "conditional_reassign_param": [(2, True), (2, False), (0, False), ("s", True)],
    "isinstance_branches": [(True,), (3,), ("t",), ("",), (None,), (1.5,)],
    "if_pass_only": [(0,), (1,)],
    "if_del": [(1,), (-1,)],
}

HYPOTHESIS = {
    "sign": ("int",),
    "classify": ("nat",),
    "if_without_else": ("int",),
    "nested_ifs": ("int", "int"),
    "ternaries": ("int",),
    "short_circuit_and": ("int", "int"),
    "short_circuit_or": ("int", "int"),
    "not_and_mixed": ("int", "int"),
    "and_or_values": ("int", "int"),
    "compare_chains": ("int", "int", "int"),
    "walrus_in_condition": ("ints",),
    "isinstance_branches": ("any",),
}

# Functions whose exception must point at the line marked `# raise-site`.
TRACEBACK = {
    "bool_raises": (1,),
}

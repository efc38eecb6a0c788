"""Edge cases a converter gets wrong easily: names that clash with generated
ones, annotations, deep nesting, long elif chains, conditional definitions,
finally clauses, deep recursion, nested generators."""

LOG = []
ROUNDS = 0


def reset():
    global ROUNDS
    ROUNDS = 0
    LOG.clear()


def snapshot():
    return ROUNDS, list(LOG)


def clashing_names(retval_, do_return):
    # The user's names are the generated helpers' names.
    if_body_8 = "user"
    loop_body_9 = []
    for break_9 in range(3):
        loop_body_9.append(break_9)
        if retval_ and break_9 == 1:
            break
    if do_return:
        return retval_, if_body_8, loop_body_9
    return do_return, loop_body_9


def ag_named_variable(n):
    ag__ = "mine"
    out = []
    for i in range(n):
        if i % 2:
            out.append(ag__)
    return out


def annotated_locals(n):
    total: int = 0
    label: str
    for i in range(n):
        total: int = total + i
        if total > 3:
            label = "big"
    return total, label if n > 3 else None


def long_elif_chain(n):
    if n == 0:
        r = "zero"
    elif n == 1:
        r = "one"
    elif n == 2:
        r = "two"
    elif n == 3:
        r = "three"
    elif n == 4:
        r = "four"
    elif n == 5:
        r = "five"
    elif n == 6:
        r = "six"
    elif n == 7:
        r = "seven"
    elif n == 8:
        r = "eight"
    elif n == 9:
        r = "nine"
    elif n == 10:
        r = "ten"
    elif n == 11:
        r = "eleven"
    elif n == 12:
        r = "twelve"
    elif n == 13:
        r = "thirteen"
    elif n == 14:
        r = "fourteen"
    elif n == 15:
        r = "fifteen"
    elif n == 16:
        r = "sixteen"
    elif n == 17:
        r = "seventeen"
    elif n == 18:
        r = "eighteen"
    elif n == 19:
        r = "nineteen"
    elif n == 20:
        r = "twenty"
    elif n == 21:
        r = "twenty-one"
    elif n == 22:
        r = "twenty-two"
    elif n == 23:
        r = "twenty-three"
    elif n == 24:
        r = "twenty-four"
    elif n == 25:
        r = "twenty-five"
    elif n == 26:
        r = "twenty-six"
    elif n == 27:
        r = "twenty-seven"
    elif n == 28:
        r = "twenty-eight"
    elif n == 29:
        r = "twenty-nine"
    elif n == 30:
        r = "thirty"
    elif n == 31:
        r = "thirty-one"
    elif n == 32:
        r = "thirty-two"
    elif n == 33:
        r = "thirty-three"
    elif n == 34:
        r = "thirty-four"
    elif n == 35:
        return "thirty-five"
    elif n == 36:
        r = "thirty-six"
    elif n == 37:
        r = "thirty-seven"
    elif n == 38:
        r = "thirty-eight"
    elif n == 39:
        r = "thirty-nine"
    else:
        r = "many"
    return r


def deeply_nested_loops(n):
    count = 0
    for a in range(n):
        for b in range(a + 1):
            while count < 200:
                for c in range(2):
                    if (a + b + c) % 2:
                        for d in range(2):
                            if d:
                                count += 1
                                if count % 7 == 0:
                                    break
                            else:
                                continue
                        else:
                            count += 100
                    elif a == b:
                        continue
                    else:
                        break
                break
    return count


def conditional_definitions(flag):
    if flag:
        def g(x):
            return x + 1

        class K:
            kind = "first"
    else:
        def g(x):
            return x - 1

        class K:
            kind = "second"
    return g(10), K.kind


def finally_overrides(x):
    # return inside finally: the design leaves this function as it is.
    for i in range(3):
        try:
            if i == x:
                raise ValueError(i)
        finally:
            if i == 1:
                return ("finally", i)
    return "end"


def continue_in_finally(values):
    out = []
    for v in values:
        try:
            out.append(10 // v)
        finally:
            if v == 0:
                continue
        out.append("after")
    return out


def loop_var_first_assigned_later(n):
    # `prev` is read before it is assigned on the first iteration.
    out = []
    for i in range(n):
        if i:
            out.append(prev)  # noqa: F821
        prev = i * 2
    return out


def global_loop_target(n):
    global ROUNDS
    for ROUNDS in range(n):
        if ROUNDS > 2:
            break
    return ROUNDS


def nested_generator_in_converted(n):
    def evens():
        for i in range(n):
            if i % 2 == 0:
                yield i

    total = 0
    for v in evens():
        if v > 6:
            break
        total += v
    return total, list(evens())


def return_from_nested_function_in_loop(values):
    out = []
    for v in values:
        def check(x):
            if x > 2:
                return "big"
            return "small"

        out.append(check(v))
        if v == 0:
            return out, "zero"
    return out


def dict_mutation_during_loop(n):
    d = {i: i for i in range(n)}
    for k in d:  # raise-site
        if k == 1:
            d[k + 100] = 0
    return d


def deep_recursion(n):
    if n == 0:
        return 0
    return 1 + deep_recursion(n - 1)


def while_else_in_try(values):
    i = 0
    try:
        while i < len(values):
            if values[i] is None:
                break
            i += 1
        else:
            raise LookupError("no None")
    except LookupError as e:
        return ("missing", e.args)
    return ("found at", i)


def del_in_loop(values):
    for v in values:
        tmp = v * 2
        if v > 1:
            del tmp
    try:
        return tmp
    except NameError as e:
        return type(e).__name__


def first_arg_not_self():
    class P:
        def __init__(this, n):
            this.n = n

        def m(this, k):
            while k < this.n:
                k += 3
            return k

    class Q(P):
        def m(this, k):
            if k:
                return super().m(k) * 2
            return None

    return Q(10).m(1), Q(10).m(0)


def classmethod_super():
    class A:
        @classmethod
        def make(cls, n):
            return [cls.__name__] * n

    class B(A):
        @classmethod
        def make(cls, n):
            if n > 1:
                return super().make(n - 1) + ["B"]
            return ["B only"]

    return B.make(3), B.make(1)


def unicode_names(n):
    résultat = 0
    for ñ in range(n):
        if ñ % 2:
            résultat += ñ
    return résultat


def string_and_bytes_loops(data):
    out = []
    for b in data.encode():
        if b > 100:
            out.append(chr(b).upper())
        elif b == 32:
            continue
        else:
            out.append(b)
    return out


def same_name_param_and_loop_var(i):
    for i in range(i):
        pass
    return i


def ternary_chain_in_loop_condition(values):
    i = 0
    while (values[i] if i < len(values) else 0) if values else False:
        i += 1
    return i


CASES = {
    "clashing_names": [(0, 0), (1, 1), (5, 0), (0, 1)],
    "ag_named_variable": [(4,)],
    "annotated_locals": [(0,), (2,), (5,)],
    "long_elif_chain": [(n,) for n in range(-1, 42)],
    "deeply_nested_loops": [(0,), (3,), (6,)],
    "conditional_definitions": [(True,), (False,)],
    "finally_overrides": [(0,), (5,)],
    "continue_in_finally": [([1, 0, 2],)],
    "loop_var_first_assigned_later": [(0,), (3,)],
    "global_loop_target": [(0,), (2,), (6,)],
    "nested_generator_in_converted": [(5,), (12,)],
    "return_from_nested_function_in_loop": [([1, 3],), ([5, 0, 1],)],
    "dict_mutation_during_loop": [(0,), (3,)],
    "deep_recursion": [(10,), (250,)],
    "while_else_in_try": [([1, None],), ([1, 2],)],
    "del_in_loop": [([0, 1],), ([1, 5],), ([],)],
    "first_arg_not_self": [()],
    "classmethod_super": [()],
    "unicode_names": [(5,)],
    "string_and_bytes_loops": [("a Zoo",)],
    "same_name_param_and_loop_var": [(0,), (4,)],
    "ternary_chain_in_loop_condition": [([],), ([1, 2, 0, 3],), ([1, 1],)],
}

HYPOTHESIS = {
    "clashing_names": ("int", "int"),
    "long_elif_chain": ("int",),
    "deeply_nested_loops": ("nat",),
    "del_in_loop": ("ints",),
    "continue_in_finally": ("ints",),
    "ternary_chain_in_loop_condition": ("ints",),
}

TRACEBACK = {
    "dict_mutation_during_loop": (3,),
}

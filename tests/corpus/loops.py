"""Loops: while/for, else clauses, targets, iterables, break/continue."""

LOG = []


def collatz(x):
    count = 0
    while x != 1:
        count += 1
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
    return count


def sum_range(n):
    total = 0
    for i in range(n):
        total += i
    return total


def for_loop_var_after(n):
    # The loop variable keeps its last value; with no iteration it is unbound.
    for i in range(n):
        pass
    return i


def while_else(n, stop):
    i = 0
    while i < n:
        if i == stop:
            break
        i += 1
    else:
        LOG.append("no break")
        return "exhausted", i
    return "broke", i


def for_else(values, target):
    for v in values:
        if v == target:
            result = "found"
            break
    else:
        result = "missing"
    return result


def for_else_continue(values):
    out = []
    for v in values:
        if v % 2:
            continue
        out.append(v)
    else:
        out.append("end")
    return out


def tuple_targets(pairs):
    total = 0
    names = []
    for name, (lo, hi) in pairs:
        total += hi - lo
        names.append(name)
    return total, names


def star_target(rows):
    out = []
    for first, *rest in rows:
        out.append((first, len(rest)))
    return out


def attribute_and_subscript_targets(n):
    class Box:
        pass

    box = Box()
    cells = [0, 0]
    for box.value in range(n):
        pass
    for cells[0] in range(n, n + 3):
        cells[1] += cells[0]
    return getattr(box, "value", None), cells


def nested_loops(n):
    pairs = []
    for i in range(n):
        for j in range(i):
            if (i + j) % 3 == 0:
                continue
            pairs.append((i, j))
            if len(pairs) > 6:
                break
    return pairs


def break_inner_only(rows):
    out = []
    for row in rows:
        for x in row:
            if x < 0:
                break
            out.append(x)
        else:
            out.append("row done")
    return out


def deep_break_continue(n):
    log = []
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            for j in range(3):
                if j == 1:
                    if i > 4:
                        break
                    else:
                        continue
                log.append((i, j))
            else:
                log.append(("else", i))
            continue
        elif i == 7:
            break
        log.append(i)
    else:
        log.append("while else")
    return log


def iterate_enumerate(values):
    out = []
    for idx, v in enumerate(values, start=1):
        out.append(idx * v)
    return out


def iterate_zip(a, b):
    out = []
    for x, y in zip(a, b):
        out.append(x - y)
    return out


def iterate_dict_items(d):
    keys = []
    total = 0
    for k, v in d.items():
        keys.append(k)
        total += v
    for k in d:
        total += len(k)
    for v in d.values():
        total -= v
    return keys, total


def iterate_string(s):
    vowels = 0
    for ch in s:
        if ch in "aeiou":
            vowels += 1
    return vowels


def iterate_set_sorted(values):
    out = []
    for v in sorted(set(values)):
        out.append(v)
    return out


def counting_gen(n):
    for i in range(n):
        LOG.append(("yield", i))
        yield i


def generator_not_advanced_past_break(n, stop):
    gen = counting_gen(n)
    seen = []
    for v in gen:
        seen.append(v)
        if v == stop:
            break
    # Whatever the loop did not consume must still be in the generator.
    return seen, list(gen)


def iterator_shared_between_loops(values):
    it = iter(values)
    first = []
    for v in it:
        if v == 0:
            break
        first.append(v)
    second = []
    for v in it:
        second.append(v)
    return first, second


def iterator_advanced_in_body(values):
    it = iter(values)
    out = []
    for v in it:
        out.append((v, next(it, None)))
    return out


def mutate_list_while_iterating(n):
    values = list(range(n))
    seen = []
    for v in values:
        seen.append(v)
        if v % 3 == 0 and len(values) < 2 * n:
            values.append(v + 100)
    return seen


def modify_loop_var(n):
    out = []
    for i in range(n):
        i = i * 10
        out.append(i)
    return out, i if n else None


def while_true_break(n):
    i = 0
    while True:
        i += 1
        if i >= n:
            break
    return i


def while_with_complex_test(a, b):
    steps = 0
    while a > 0 and (b > 0 or steps < 3) and not a == b:
        a -= 1
        b -= 2
        steps += 1
    return a, b, steps


def loop_test_side_effects(n):
    def check(i):
        LOG.append(("check", i))
        return i < n

    i = 0
    while check(i):
        i += 1
    return i


def for_over_function_result(n):
    def items():
        LOG.append("items called")
        return [n, n + 1]

    total = 0
    for v in items():
        total += v
    return total


def reversed_and_range_step(n):
    out = []
    for i in reversed(range(0, n, 2)):
        out.append(i)
    for i in range(n, 0, -3):
        out.append(-i)
    return out


def loop_over_non_iterable(x):
    total = 0
    for v in x:  # raise-site
        total += v
    return total


def raise_inside_loop(values):
    total = 0
    for v in values:
        if v < 0:
            raise ValueError(f"negative value {v} after {total}")  # raise-site
        total += v
    return total


def raise_in_while(n):
    i = 0
    while i < 10:
        i += 1
        total = 100 // (n - i)  # raise-site
    return total


def empty_loops():
    for _ in []:
        LOG.append("never")
    while False:
        LOG.append("never")
    else:
        LOG.append("while else")
    return "ok"


def loop_else_with_return(values):
    for v in values:
        if v == 0:
            break
    else:
        return "no zero"
    return "zero"


def loop_redefines_function(n):
    fns = []
    for i in range(n):
        def f(x, i=i):
            return x + i

        fns.append(f)
    return [f(10) for f in fns]


def fizzbuzz(n):
    out = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            out.append("FizzBuzz")
        elif i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(i))
    return out


def primes_below(n):
    primes = []
    candidate = 2
    while candidate < n:
        for p in primes:
            if p * p > candidate:
                primes.append(candidate)
                break
            if candidate % p == 0:
                break
        else:
            primes.append(candidate)
        candidate += 1
    return primes


CASES = {
    "collatz": [(1,), (6,), (27,), (97,)],
    "sum_range": [(0,), (1,), (10,)],
    "for_loop_var_after": [(0,), (1,), (5,)],
    "while_else": [(5, 2), (5, 9), (0, 0)],
    "for_else": [([1, 2, 3], 2), ([1, 2, 3], 7), ([], 1)],
    "for_else_continue": [([1, 2, 3, 4],), ([],)],
    "tuple_targets": [([("a", (1, 4)), ("b", (2, 3))],), ([],)],
    "star_target": [([(1, 2, 3), (4,), (5, 6)],)],
    "attribute_and_subscript_targets": [(0,), (3,)],
    "nested_loops": [(0,), (4,), (9,)],
    "break_inner_only": [([[1, 2], [3, -1, 4], [], [-2]],)],
    "deep_break_continue": [(n,) for n in range(0, 10)],
    "iterate_enumerate": [([3, 4, 5],), ([],)],
    "iterate_zip": [([1, 2, 3], [3, 2]), ([], [1])],
    "iterate_dict_items": [({"a": 1, "bb": 2},), ({},)],
    "iterate_string": [("autograph",), ("",)],
    "iterate_set_sorted": [([3, 1, 3, 2],)],
    "generator_not_advanced_past_break": [(5, 2), (5, 9), (0, 0), (3, 0)],
    "iterator_shared_between_loops": [([1, 2, 0, 3, 4],), ([1, 2],)],
    "iterator_advanced_in_body": [([1, 2, 3, 4, 5],), ([],)],
    "mutate_list_while_iterating": [(4,), (7,)],
    "modify_loop_var": [(0,), (4,)],
    "while_true_break": [(1,), (5,)],
    "while_with_complex_test": [(5, 9), (3, 3), (10, 1), (0, 5)],
    "loop_test_side_effects": [(0,), (3,)],
    "for_over_function_result": [(3,)],
    "reversed_and_range_step": [(0,), (7,), (10,)],
    "loop_over_non_iterable": [([1, 2],), (5,), (None,)],
    "raise_inside_loop": [([1, 2, 3],), ([1, -2, 3],), ([-1],)],
    "raise_in_while": [(20,), (4,), (1,)],
    "empty_loops": [()],
    "loop_else_with_return": [([1, 2],), ([1, 0, 2],)],
    "loop_redefines_function": [(0,), (3,)],
    "fizzbuzz": [(0,), (16,)],
    "primes_below": [(2,), (30,)],
}

HYPOTHESIS = {
    "collatz": ("pos",),
    "sum_range": ("nat",),
    "for_loop_var_after": ("nat",),
    "while_else": ("nat", "nat"),
    "for_else": ("ints", "int"),
    "for_else_continue": ("ints",),
    "nested_loops": ("nat",),
    "deep_break_continue": ("nat",),
    "iterate_enumerate": ("ints",),
    "iterate_zip": ("ints", "ints"),
    "generator_not_advanced_past_break": ("nat", "nat"),
    "iterator_shared_between_loops": ("ints",),
    "iterator_advanced_in_body": ("ints",),
    "while_with_complex_test": ("int", "int"),
    "raise_inside_loop": ("ints",),
    "raise_in_while": ("nat",),
    "loop_else_with_return": ("ints",),
    "primes_below": ("nat",),
    "fizzbuzz": ("nat",),
}

TRACEBACK = {
    "loop_over_non_iterable": (5,),
    "raise_inside_loop": ([1, -2, 3],),
    "raise_in_while": (4,),
}

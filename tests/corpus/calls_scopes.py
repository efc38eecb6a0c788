"""Calls (converted recursively), do_not_convert, scopes, signatures, decorators, lambdas."""
import functools

from autograph_cli import do_not_convert

LOG = []
COUNTER = 0
SCALE = 3


def reset():
    global COUNTER, SCALE
    COUNTER = 0
    SCALE = 3
    LOG.clear()


def snapshot():
    return COUNTER, SCALE, list(LOG)


def helper_abs(x):
    if x < 0:
        return -x
    return x


def helper_clip(x, lo=0, hi=10):
    if x < lo:
        x = lo
    elif x > hi:
        x = hi
    return x


def calls_user_functions(values):
    out = []
    for v in values:
        out.append(helper_clip(helper_abs(v), hi=5))
    return out


def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def mutual_recursion(n):
    return is_even(n), is_odd(n)


@do_not_convert
def untouched(values):
    total = 0
    for v in values:
        if v > 0:
            total += v
    return total


def calls_untouched(values):
    if values:
        return untouched(values) + 1
    return untouched([])


def bump(amount):
    global COUNTER
    for _ in range(amount):
        COUNTER += 1
        if COUNTER > 5:
            break
    return COUNTER


def set_scale_in_branch(x):
    global SCALE
    if x > 0:
        SCALE = x
    else:
        LOG.append("kept")
    return SCALE * 2


def closure_counter(n):
    count = 0

    def incr(step):
        nonlocal count
        if step > 0:
            count += step
        return count

    for i in range(n):
        incr(i % 3)
    return count


def nonlocal_in_loop(values):
    best = None

    def consider(v):
        nonlocal best
        if best is None or v > best:
            best = v

    for v in values:
        consider(v)
    return best


def closure_sees_later_binding(n):
    fns = []
    for i in range(n):
        fns.append(lambda: i)
    return [f() for f in fns]


def defaults_and_kwonly(a, b=2, *args, c, d=4, **kwargs):
    if args:
        a += sum(args)
    if kwargs:
        for k in sorted(kwargs):
            LOG.append((k, kwargs[k]))
    return a, b, c, d


def call_with_kwargs(x):
    r1 = defaults_and_kwonly(x, c=1)
    r2 = defaults_and_kwonly(x, 5, 6, 7, c=2, e=9, f=8)
    params = {"c": 3, "d": x}
    r3 = defaults_and_kwonly(*[x, x], **params)
    return r1, r2, r3


def mutable_default(x, acc=[]):
    # The shared default list persists between calls: that is Python.
    if x:
        acc.append(x)
    return len(acc)


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        LOG.append(("call", fn.__name__, args))
        result = fn(*args, **kwargs)
        LOG.append(("result", result))
        return result

    return wrapper


@logged
def decorated(x):
    if x > 1:
        return x * 2
    return -x


def calls_decorated(values):
    return [decorated(v) for v in values]


def lambda_ternaries(values):
    clamp = lambda v: 0 if v < 0 else 9 if v > 9 else v  # noqa: E731
    pick = lambda a, b: a if a and b else b or a  # noqa: E731
    out = []
    for v in values:
        out.append((clamp(v), pick(v, v - 1)))
    return out


def higher_order(values):
    def apply(fn, xs):
        out = []
        for x in xs:
            out.append(fn(x))
        return out

    return apply(lambda x: x * SCALE if x % 2 else x, values), apply(helper_abs, values)


def builtins_in_control_flow(values):
    if len(values) > 2 and max(values) > 3:
        return sum(v for v in values if v > 0), min(values)
    return sorted(values, reverse=True)


def method_calls(values):
    text = " ".join(str(v) for v in values)
    parts = text.split()
    if parts and parts[0].isdigit():
        return ",".join(parts).upper()
    return text.strip() or "empty"


def partial_and_callable_objects(n):
    class Adder:
        def __init__(self, k):
            self.k = k

        def __call__(self, x):
            if x > self.k:
                return x - self.k
            return x + self.k

    add3 = Adder(3)
    mul = functools.partial(pow, 2)
    out = []
    for i in range(n):
        out.append((add3(i), mul(i)))
    return out


def recursive_inner(n):
    def walk(k, depth):
        if k <= 1:
            return depth
        if k % 2:
            return walk(3 * k + 1, depth + 1)
        return walk(k // 2, depth + 1)

    return walk(n, 0)


def global_read_only(x):
    if x > SCALE:
        return x - SCALE
    return SCALE


def class_scope_function(n):
    class Config:
        limit = 3
        values = [i for i in range(limit)]

        def bigger(self, x):
            if x > self.limit:
                return True
            return False

    cfg = Config()
    return cfg.values, [cfg.bigger(i) for i in range(n)]


CASES = {
    "calls_user_functions": [([-7, 3, 12, 0],)],
    "factorial": [(0,), (1,), (6,)],
    "mutual_recursion": [(0,), (7,), (10,)],
    "calls_untouched": [([1, -2, 3],), ([],)],
    "bump": [(0,), (3,), (9,)],
    "set_scale_in_branch": [(5,), (-1,)],
    "closure_counter": [(0,), (7,)],
    "nonlocal_in_loop": [([],), ([3, 9, 2],)],
    "closure_sees_later_binding": [(3,)],
    "defaults_and_kwonly": [
        {"args": (1,), "kwargs": {"c": 2}},
        {"args": (1, 2, 3, 4), "kwargs": {"c": 5, "z": 6}},
        {"args": (1,), "kwargs": {}},
    ],
    "call_with_kwargs": [(1,), (4,)],
    "decorated": [(1,), (5,)],
    "calls_decorated": [([0, 2, 3],)],
    "lambda_ternaries": [([-3, 0, 4, 12],)],
    "higher_order": [([1, -2, 3],)],
    "builtins_in_control_flow": [([1, 5, -2],), ([1],), ([4, 4, 4],)],
    "method_calls": [([1, 2],), ([],)],
    "partial_and_callable_objects": [(6,)],
    "recursive_inner": [(1,), (7,), (27,)],
    "global_read_only": [(1,), (10,)],
    "class_scope_function": [(5,)],
}

HYPOTHESIS = {
    "calls_user_functions": ("ints",),
    "factorial": ("nat",),
    "mutual_recursion": ("nat",),
    "bump": ("nat",),
    "set_scale_in_branch": ("int",),
    "closure_counter": ("nat",),
    "nonlocal_in_loop": ("ints",),
    "lambda_ternaries": ("ints",),
    "builtins_in_control_flow": ("ints",),
    "recursive_inner": ("pos",),
}

TRACEBACK = {}

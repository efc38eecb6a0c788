"""Everything else: f-strings, comprehensions, walrus, match, generators,
async functions, classes with super(), locals(), unpacking, del, slices."""
import asyncio

LOG = []


def fstrings(values):
    out = []
    for i, v in enumerate(values):
        width = 6 if i % 2 else 4
        out.append(f"{i:>{width}}|{v!r}|{v if v else 'empty'}|{'{'}{len(out)}{'}'}")
    return "\n".join(out)


def comprehensions(n):
    squares = [i * i for i in range(n) if i % 2 == 0]
    table = {i: [j for j in range(i) if j % 2 or j == 0] for i in range(n)}
    nested = [(i, j) for i in range(n) for j in range(i) if (i + j) % 3]
    uniq = {i % 3 for i in range(n)}
    gen_total = sum(i for i in range(n) if i > 2)
    cond = [("even" if i % 2 == 0 else "odd") for i in range(n)]
    return squares, table, nested, uniq, gen_total, cond


def walrus_in_comprehension(values):
    kept = [y for v in values if (y := v * 2) > 4]
    total = 0
    running = [(total := total + v) for v in values]
    # `y` leaks out of the comprehension into the function scope.
    return kept, running, total, (y if values else None)


def walrus_in_loop(values):
    out = []
    it = iter(values)
    while (v := next(it, None)) is not None:
        if (half := v // 2) > 1:
            out.append(half)
    return out, v


def match_statement(command):
    match command:
        case ["go", direction] if direction in ("north", "south"):
            result = ("move", direction)
        case ["go", _]:
            result = ("blocked",)
        case ["pick", *items]:
            result = ("pick", len(items))
        case {"action": action, **rest}:
            result = ("dict", action, sorted(rest))
        case int(n) if n < 0:
            result = "negative"
        case int() | float():
            result = "number"
        case str() as s:
            result = s.upper()
        case _:
            result = None
    return result


def match_in_loop(items):
    out = []
    for item in items:
        match item:
            case 0:
                continue
            case 99:
                break
            case (a, b):
                out.append(a + b)
            case _:
                out.append(item)
    return out


def generator_function(n):
    for i in range(n):
        if i % 2:
            continue
        if i > 6:
            return
        yield i
    yield "end"


def generator_with_send():
    total = 0
    while True:
        value = yield total
        if value is None:
            break
        total += value
    return total


def drive_generator_with_send(values):
    gen = generator_with_send()
    out = [next(gen)]
    for v in values:
        out.append(gen.send(v))
    try:
        gen.send(None)
    except StopIteration as stop:
        out.append(("stopped", stop.value))
    return out


def yield_from_delegation(n):
    def inner(k):
        for i in range(k):
            yield i
        return k * 10

    result = yield from inner(n)
    if result > 10:
        yield result


async def async_sum(values):
    total = 0
    for v in values:
        await asyncio.sleep(0)
        if v < 0:
            break
        total += v
    return total


async def async_loops(n):
    async def agen(k):
        for i in range(k):
            yield i

    out = []
    async for v in agen(n):
        if v == 3:
            continue
        out.append(v)
    return out


def calls_async(values):
    return asyncio.run(async_sum(values))


class Base:
    def __init__(self, scale):
        self.scale = scale

    def describe(self, x):
        if x > 0:
            return f"base {x * self.scale}"
        return "base nonpositive"


class Child(Base):
    def __init__(self, scale, offset):
        super().__init__(scale)
        self.offset = offset

    def describe(self, x):
        parts = []
        for i in range(x):
            if i % 2:
                parts.append(super().describe(i))
            else:
                parts.append(str(i + self.offset))
        return parts or [super().describe(x)]

    @classmethod
    def build(cls, n):
        if n > 2:
            return cls(n, 1)
        return cls(1, n)

    @staticmethod
    def helper(values):
        return [v for v in values if v] or None

    @property
    def total(self):
        return self.scale + self.offset if self.offset else self.scale


def use_classes(n):
    c = Child.build(n)
    return c.describe(n), c.total, Child.helper([0, n, 1])


def class_defined_in_function(n):
    class Local:
        items = []
        for i in range(3):
            items.append(i * 2)

        def method(self, k):
            while k > 0:
                k -= 2
                if k == 1:
                    break
            return k

    return Local.items, Local().method(n)


def uses_locals(x):
    if x:
        y = x * 2
    return sorted(locals())


def uses_eval(x):
    if x > 0:
        return eval("x + 1")
    return eval("x - 1")


def unpacking(values):
    first, *middle, last = values
    a, (b, c) = first, (last, len(middle))
    merged = [*values, *middle]
    mapping = {**{"a": a}, "b": b}
    return a, b, c, merged, mapping


def delete_statements(values):
    values = list(values)
    d = {"x": 1, "y": 2}
    for v in list(values):
        if v % 2:
            del values[values.index(v)]
    if "x" in d:
        del d["x"]
    return values, d


def slices_and_augmented(values):
    values = list(values)
    i = 0
    while i < len(values):
        values[i] += i
        values[i:i + 1] = [values[i]] * (1 if values[i] % 2 else 2)
        i += 1 if values[i] % 2 else 2
    return values[::-1], values[1:3]


def global_in_nested():
    def setter(v):
        global _NESTED_GLOBAL
        if v:
            _NESTED_GLOBAL = v

    setter(0)
    setter(7)
    return _NESTED_GLOBAL


_NESTED_GLOBAL = None


def docstring_and_annotations(x: int, y: "str" = "a") -> str:
    """A docstring: stays the function's docstring."""
    result: str = ""
    for i in range(x):
        result += y if i % 2 else y.upper()
    return result


def function_attributes():
    return docstring_and_annotations.__doc__, docstring_and_annotations.__name__


def string_formatting_old_styles(n):
    out = []
    for i in range(n):
        out.append("%d-%s" % (i, "x" * i) if i else "{}".format(i))
    return out


def try_star_free_conditional_import(flag):
    if flag:
        import math as m
    else:
        import cmath as m
    return m.__name__


def loop_with_print_and_sep(n):
    for i in range(n):
        print(i, i * i, sep=":", end=";" if i < n - 1 else "\n")
    if n:
        print("total", n)


CASES = {
    "fstrings": [([1, "", None, "x"],)],
    "comprehensions": [(0,), (6,)],
    "walrus_in_comprehension": [([],), ([1, 3, 5],)],
    "walrus_in_loop": [([4, 8, 2],), ([],)],
    "match_statement": [
        (["go", "north"],), (["go", "up"],), (["pick", 1, 2],), ({"action": "x", "z": 1},),
        (-3,), (3,), (2.5,), ("text",), (None,),
    ],
    "match_in_loop": [([1, 0, (2, 3), 99, 4],)],
    "generator_function": [(0,), (5,), (12,)],
    "drive_generator_with_send": [([1, 2, 3],), ([],)],
    "yield_from_delegation": [(1,), (3,)],
    "async_sum": [([1, 2, 3],), ([1, -1, 5],)],
    "async_loops": [(5,)],
    "calls_async": [([2, 3],)],
    "use_classes": [(1,), (4,)],
    "class_defined_in_function": [(5,), (4,)],
    "uses_locals": [(0,), (1,)],
    "uses_eval": [(2,), (-2,)],
    "unpacking": [([1, 2],), ([1, 2, 3, 4],), ([1],)],
    "delete_statements": [([1, 2, 3, 4, 5],)],
    "slices_and_augmented": [([1, 2, 3, 4],), ([],)],
    "global_in_nested": [()],
    "docstring_and_annotations": [(3,), (2, "b")],
    "function_attributes": [()],
    "string_formatting_old_styles": [(4,)],
    "try_star_free_conditional_import": [(True,), (False,)],
    "loop_with_print_and_sep": [(0,), (3,)],
}

HYPOTHESIS = {
    "comprehensions": ("nat",),
    "walrus_in_comprehension": ("ints",),
    "walrus_in_loop": ("ints",),
    "match_in_loop": ("ints",),
    "generator_function": ("nat",),
    "async_sum": ("ints",),
    "slices_and_augmented": ("ints",),
    "match_statement": ("any",),
}

TRACEBACK = {}

# Methods converted on their own with to_graph (differential in to_graph mode
# only): (class name, method name, constructor args, method args).
METHODS = [
    ("Child", "describe", (2, 5), (4,)),
    ("Child", "describe", (2, 5), (0,)),
    ("Base", "describe", (3,), (2,)),
]

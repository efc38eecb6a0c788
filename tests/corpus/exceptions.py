"""assert, try/except/else/finally (inside loops, with break/continue/return), with."""

LOG = []


class CorpusError(Exception):
    pass


class Resource:
    """A context manager that records enter/exit and may swallow errors."""

    def __init__(self, name, swallow=False):
        self.name = name
        self.swallow = swallow

    def __enter__(self):
        LOG.append(("enter", self.name))
        return self.name.upper()

    def __exit__(self, exc_type, exc, tb):
        LOG.append(("exit", self.name, exc_type.__name__ if exc_type else None))
        return self.swallow


def check_positive(x):
    assert x > 0
    return x


def check_with_message(x):
    assert x % 2 == 0, f"{x} is odd"  # raise-site
    return x // 2


def assert_message_lazy(x):
    def message():
        LOG.append("message built")
        return "bad"

    assert x, message()
    return "ok"


def assert_in_loop(values):
    total = 0
    for v in values:
        assert v is not None, ("None at", total)
        total += v
    return total


def try_except_in_loop(values):
    out = []
    for v in values:
        try:
            out.append(10 // v)
        except ZeroDivisionError:
            out.append("div0")
            continue
        except TypeError as e:
            out.append(type(e).__name__)
            break
        else:
            LOG.append(("else", v))
        finally:
            LOG.append(("finally", v))
        out.append("tail")
    return out


def try_finally_break(n):
    i = 0
    while True:
        try:
            i += 1
            if i >= n:
                break
        finally:
            LOG.append(("finally", i))
    return i


def try_return_finally_order(x):
    try:
        if x:
            return "from try"
        LOG.append("no return")
    finally:
        LOG.append("finally")
    return "after"


def except_reraises(values):
    for v in values:
        try:
            if v < 0:
                raise CorpusError("negative", v)
        except CorpusError:
            LOG.append("caught")
            if v < -5:
                raise
    return "done"


def exception_chaining(x):
    try:
        return {"a": 1}[x]
    except KeyError as e:
        raise CorpusError(f"missing {x!r}") from e


def raise_from_nested_loops(grid):
    for row in grid:
        for v in row:
            if v == "bad":
                raise CorpusError("bad cell", row.index(v))  # raise-site
    return len(grid)


def except_variable_unbound_after(x):
    try:
        1 / x
    except ZeroDivisionError as err:
        LOG.append(str(err))
    try:
        return err
    except NameError as e:
        return type(e).__name__


def nested_try_in_if(x):
    if x > 0:
        try:
            if x > 5:
                raise ValueError(x)
            r = "small"
        except ValueError as e:
            r = ("big", e.args)
    else:
        r = "non-positive"
    return r


def with_statement(names):
    out = []
    for n in names:
        with Resource(n) as upper:
            if n == "skip":
                continue
            out.append(upper)
            if n == "stop":
                break
    return out


def with_swallows(x):
    for i in range(3):
        with Resource(f"r{i}", swallow=True):
            if i == x:
                raise CorpusError(i)
            LOG.append(i)
    return "survived"


def with_return_inside(x):
    with Resource("a"), Resource("b") as b:
        if x:
            return b
    return "after"


def raise_in_with_propagates(x):
    with Resource("r"):
        if x:
            raise CorpusError("from with")  # raise-site
    return "clean"


def exception_group_free_retry(attempts):
    # A retry loop: try/except with continue, else with break.
    tries = 0
    while tries < 5:
        tries += 1
        try:
            if tries < attempts:
                raise CorpusError("transient")
        except CorpusError:
            LOG.append(("retry", tries))
            continue
        else:
            LOG.append("succeeded")
            break
    else:
        return "gave up", tries
    return "ok", tries


def catch_everything(x):
    results = []
    for op in ("div", "index", "key", "attr"):
        try:
            if op == "div":
                results.append(1 // x)
            elif op == "index":
                results.append([1, 2][x])
            elif op == "key":
                results.append({0: "zero"}[x])
            else:
                results.append(x.real)
        except (ZeroDivisionError, IndexError) as e:
            results.append((type(e).__name__, e.args))
        except Exception as e:
            results.append(("other", type(e).__name__, e.args))
    return results


CASES = {
    "check_positive": [(1,), (0,), (-3,)],
    "check_with_message": [(4,), (3,)],
    "assert_message_lazy": [(1,), (0,)],
    "assert_in_loop": [([1, 2],), ([1, None, 2],)],
    "try_except_in_loop": [([1, 0, 2],), ([5, "x", 1],), ([],)],
    "try_finally_break": [(1,), (3,)],
    "try_return_finally_order": [(0,), (1,)],
    "except_reraises": [([1, -1, 2],), ([-1, -6, 3],)],
    "exception_chaining": [("a",), ("b",)],
    "raise_from_nested_loops": [([[1], [2, "bad"]],), ([[1]],)],
    "except_variable_unbound_after": [(0,), (1,)],
    "nested_try_in_if": [(1,), (9,), (0,)],
    "with_statement": [(["a", "skip", "b", "stop", "c"],), ([],)],
    "with_swallows": [(1,), (5,)],
    "with_return_inside": [(0,), (1,)],
    "raise_in_with_propagates": [(0,), (1,)],
    "exception_group_free_retry": [(0,), (3,), (9,)],
    "catch_everything": [(0,), (1,), (2,), ("s",)],
}

HYPOTHESIS = {
    "check_with_message": ("int",),
    "assert_in_loop": ("ints",),
    "try_except_in_loop": ("ints",),
    "try_finally_break": ("nat",),
    "except_reraises": ("ints",),
    "nested_try_in_if": ("int",),
    "exception_group_free_retry": ("nat",),
    "catch_everything": ("int",),
}

TRACEBACK = {
    "check_with_message": (3,),
    "raise_from_nested_loops": ([[1], [2, "bad"]],),
    "raise_in_with_propagates": (1,),
}

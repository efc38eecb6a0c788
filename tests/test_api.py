"""autograph_cli.to_graph / to_code / do_not_convert and the pipeline's
report, line map and errors."""
from __future__ import annotations

import ast
import subprocess
import sys
import traceback

import pytest

import converters
from autograph_cli import api, operators, to_code, to_graph


@pytest.fixture
def functional():
    prev = operators.force_functional(True)
    try:
        yield
    finally:
        operators.force_functional(prev)


def test_to_graph_shares_closure_cells_and_defaults(functional):
    hits = 0

    def make(step=2, *, limit=7):
        def count(n):
            nonlocal hits
            total = 0
            while total < limit:
                total += step
                hits += 1
            return total + n

        return count

    original = make()
    g = to_graph(original)
    assert g(1) == original(1) == 9
    assert hits == 8  # both calls wrote the same cell
    assert g.__name__ == "count" and g.__wrapped__ is original


def test_to_graph_methods_super_and_recursion(functional):
    class Base:
        def value(self, x):
            return x

    class Child(Base):
        def value(self, x):
            if x > 3:
                return super().value(x) * 10
            return self.value(x + 1)

    c = Child()
    assert to_graph(c.value)(1) == c.value(1) == 40
    assert to_graph(Child.value)(c, 5) == 50


def test_to_graph_lambda(functional):
    clip = lambda v: 0 if v < 0 else (5 if v > 5 else v)  # noqa: E731
    g = to_graph(clip)
    assert [g(v) for v in range(-2, 8)] == [clip(v) for v in range(-2, 8)]
    assert g.__name__ == "<lambda>"


def test_functions_left_as_they_are_are_returned_unchanged():
    def peek(n):
        for i in range(n):
            if i > 2:
                return locals()

    assert to_graph(peek) is peek


def test_generators_keep_yielding_statements_and_convert_the_rest(functional):
    def gen(xs, limit):
        for x in xs:
            k = 0
            while k < x and k < limit:
                k += 1
            if k % 2:
                yield k
        return "done"

    g = to_graph(gen)
    assert g is not gen
    it = g([1, 2, 3, 9], 4)
    assert list(it) == list(gen([1, 2, 3, 9], 4)) == [1, 3]
    text = to_code(gen)
    assert "ag__.while_stmt" in text and "yield k" in text


def test_fast_path_runs_the_users_statements():
    def f(xs):
        out = []
        for x in xs:
            if x:
                out.append(x)
        return out

    g = to_graph(f)
    # No trace and nothing forced: the functional form does not run, so no
    # operator sees the values.
    calls = []
    original = operators.if_stmt
    operators.if_stmt = lambda *a: calls.append(a)
    try:
        assert g([0, 1, 2]) == [1, 2]
    finally:
        operators.if_stmt = original
    assert calls == []


def test_traceback_names_the_users_file_and_line(functional):
    def f(n):
        i = 0
        while i < n:
            i += 1
            if i == 2:
                raise KeyError(i)  # the line
        return i

    g = to_graph(f)
    with pytest.raises(KeyError) as info:
        g(5)
    frames = [fr for fr in traceback.extract_tb(info.tb) if fr.filename == __file__]
    assert frames[-1].line == "raise KeyError(i)  # the line"


def test_do_not_convert_is_respected_under_conversion(functional):
    seen = []

    @api.do_not_convert
    def helper(x):
        seen.append(type(operators).__name__)
        return x if x else -1

    def f(x):
        if x > 0:
            return helper(x)
        return helper(0)

    assert to_graph(f)(3) == 3
    assert operators.converted(helper) is helper


def test_to_code_shows_functional_form_only():
    def f(x):
        while x > 1:
            x = x // 2
        return x

    text = to_code(f)
    ast.parse(text)
    assert "ag__.while_stmt" in text and "ag__.fast" not in text
    assert text.startswith("def f(x):")
    # a second conversion of the output changes nothing
    assert converters.convert(text, fast_path=False).code == text


def test_report_lists_converted_and_left_functions():
    src = (
        "def a(x):\n"
        "    if x:\n"
        "        return 1\n"
        "    return 2\n"
        "def b():\n"
        "    for i in range(3):\n"
        "        yield i\n"
        "class C:\n"
        "    def m(self):\n"
        "        return locals()\n"
        "    async def n(self):\n"
        "        return 1\n"
    )
    result = converters.convert(src, filename="mod.py")
    report = {r.qualname: r for r in result.report}
    assert report["a"].converted and report["a"].line == 1
    assert report["b"].converted  # a generator: its yielding loop stays Python
    assert not report["C.m"].converted and "locals" in report["C.m"].reason
    assert not report["C.n"].converted and report["C.n"].reason == "async function"


def test_syntax_errors_are_located():
    with pytest.raises(converters.ConversionError) as info:
        converters.convert("def f(:\n    pass\n", filename="bad.py")
    err = info.value
    assert (err.filename, err.line) == ("bad.py", 1)
    assert str(err).startswith("bad.py:1:")


def test_line_map_points_every_line_at_the_function():
    src = (
        "import os\n"
        "\n"
        "def f(xs):\n"
        "    # a comment\n"
        "    total = 0\n"
        "    for x in xs:\n"
        "        if x > 0:\n"
        "            total += x\n"
        "        else:\n"
        "            break\n"
        "    return total\n"
        "\n"
        "X = 1\n"
    )
    result = converters.convert(src, filename="m.py")
    lines = result.code.split("\n")
    for i, text in enumerate(lines, start=1):
        original = result.original_line(i)
        stripped = text.strip()
        if stripped.startswith(("total = 0", "total += x", "X = 1", "import os")):
            assert src.split("\n")[original - 1].strip() == stripped, (i, text)
        if "ag__.if_stmt" in text:
            assert original == 7
        if "ag__.for_stmt" in text:
            assert original == 6


def test_conversion_is_deterministic_and_stable():
    src = open(converters.__file__.replace("__init__.py", "jumps.py")).read()
    a = converters.convert(src, fast_path=False).code
    b = converters.convert(src, fast_path=False).code
    assert a == b
    assert converters.convert(a, fast_path=False).code == a
    ast.parse(a)


def test_importing_the_package_is_light():
    code = (
        "import sys, autograph_cli\n"
        "heavy = [m for m in ('numpy', 'libcst', 'rich') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_to_graph_keeps_private_name_mangling_of_methods():
    class Account:
        def __init__(self):
            self.__balance = 10

        def __fee(self, n):
            return n // 10

        def withdraw(self, n):
            if n > self.__balance:
                return 0
            self.__balance -= n + self.__fee(n)
            return self.__balance

    for forced in (False, True):
        prev = operators.force_functional(forced)
        try:
            a = Account()
            assert to_graph(a.withdraw)(5) == 5
            assert to_graph(Account.withdraw)(a, 50) == 0
        finally:
            operators.force_functional(prev)


class _Log:
    def __init__(self):
        self.items = []

    def append(self, item):
        if item < 0:
            raise ValueError(f"negative: {item}")
        self.items.append(item)


def _fill(log, xs):
    for x in xs:
        log.append(x)
    return log.items


def test_a_user_defined_append_keeps_its_own_frames():
    # `log.append(x)` becomes ag__.list_append(log, x): an error raised inside
    # the user's own append must show that method's frame, as in Python.
    import traceback

    from autograph_cli import operators, to_graph

    converted = to_graph(_fill)
    assert converted(_Log(), [1, 2]) == [1, 2]
    prev = operators.force_functional(True)
    try:
        with pytest.raises(ValueError, match="negative: -1") as info:
            converted(_Log(), [1, -1])
    finally:
        operators.force_functional(prev)
    frames = [(f.name, f.line) for f in traceback.extract_tb(info.tb)]
    assert frames[-1] == ("append", 'raise ValueError(f"negative: {item}")')

"""Converted code reports the user's lines: the location tables that
``autograph_cli._lines`` rewrites, checked against an independent mapping of
the positions the compiler produced, and against the ``ast`` route (map every
node's line, compile the tree) on real converted standard-library modules."""
from __future__ import annotations

import importlib.util
import linecache
import sys
import traceback
import types

import pytest

import converters
from autograph_cli import _lines

MODULES = ["textwrap", "difflib", "calendar", "fractions", "shlex", "heapq", "argparse", "dataclasses"]


def _code_objects(code):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _code_objects(c)


def _converted(name, lazy=True):
    path = importlib.util.find_spec(name).origin
    with open(path, encoding="utf-8") as f:
        result = converters.convert(f.read(), filename=path, fast_path=True, lazy=lazy)
    line_map = result.line_map

    def line_of(i):
        return line_map[i - 1] if 1 <= i <= len(line_map) else i

    return result, line_of


def _expected(positions, line_of):
    out = []
    for line, end_line, col, end_col in positions:
        if line is None:
            out.append((None, end_line, col, end_col))
            continue
        start = line_of(line)
        end = None if end_line is None else max(start, line_of(end_line))
        if end == start and end_line != line and col is not None and end_col is not None:
            end_col = max(end_col, col)
        out.append((start, end, col, end_col))
    return out


@pytest.mark.skipif(not _lines._REWRITES_TABLE, reason="this Python's location table is not rewritten")
@pytest.mark.parametrize("name", MODULES)
@pytest.mark.parametrize("lazy", [True, False])
def test_rewritten_tables_report_the_mapped_positions(name, lazy):
    result, line_of = _converted(name, lazy)
    plain = compile(result.code, result.filename, "exec", dont_inherit=True)
    mapped = _lines.compile_mapped(result.code, result.filename, line_of)
    via_ast = compile(_lines.mapped_tree(result.code, line_of), result.filename, "exec", dont_inherit=True)
    codes = list(zip(_code_objects(plain), _code_objects(mapped), _code_objects(via_ast)))
    assert len(codes) == len(list(_code_objects(plain))) > 10
    for p, m, a in codes:
        assert m.co_code == p.co_code and m.co_qualname == p.co_qualname
        assert list(m.co_positions()) == _expected(p.co_positions(), line_of), m.co_qualname
        # The same lines, and first lines, as compiling a line-mapped tree.
        assert m.co_firstlineno == a.co_firstlineno, m.co_qualname
        assert {x for *_, x in m.co_lines()} == {x for *_, x in a.co_lines()}, m.co_qualname


def test_a_traceback_shows_the_original_line(tmp_path):
    src = (
        "def f(xs):\n"
        "    total = 0\n"
        "    for x in xs:\n"
        "        if x < 0:\n"
        "            raise ValueError(\n"
        "                f'negative: {x}')\n"
        "        total += x\n"
        "    return total\n"
    )
    path = str(tmp_path / "mod.py")
    (tmp_path / "mod.py").write_text(src)
    result = converters.convert(src, filename=path, fast_path=False)
    assert result.code.count("\n") > src.count("\n")  # the functional form has more lines

    def line_of(i):
        return result.line_map[i - 1] if 1 <= i <= len(result.line_map) else i

    from autograph_cli import operators

    namespace = {"ag__": operators}
    exec(_lines.compile_mapped(result.code, path, line_of), namespace)
    linecache.checkcache(path)
    with pytest.raises(ValueError) as info:
        namespace["f"]([1, 2, -3])
    frame = traceback.extract_tb(info.tb)[-1]
    # (the frame is a helper of the functional form: named if_body_N)
    assert (frame.filename, frame.lineno, getattr(frame, "end_lineno", 6)) == (path, 5, 6)  # end lines: 3.11+
    assert frame.line == "raise ValueError("


CARETS = (
    "def top(x, ys):\n"
    "    total = 0\n"
    "    for y in ys:\n"
    "        if y > 0:\n"
    "            total += x + 1 / (y - 1)   \n"  # (trailing blanks: still the user's line)
    "    return total\n"
    "\n"
    "\n"
    "class Box:\n"
    "    def method(self, d):\n"
    "        if d:\n"
    "            return {'a': 1}[d]\n"
    "        return 0\n"
)


def _innermost(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 - the traceback is what is compared
        return traceback.format_exception(e)[-2]
    raise AssertionError("no exception")


def test_carets_under_the_users_code(tmp_path):
    # to_graph re-indents a function's text: columns follow the user's text;
    # in the functional form, a helper's frame on a line the user wrote shows
    # that line with correct carets, or no carets, never misplaced ones.
    import importlib.util

    from autograph_cli import operators, to_graph

    path = tmp_path / "carets_mod.py"
    path.write_text(CARETS)
    spec = importlib.util.spec_from_file_location("carets_mod", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    cases = [(mod.top, (1, [2, 1])), (mod.Box.method, (mod.Box(), "b"))]
    for fn, args in cases:
        plain = _innermost(fn, *args)
        assert ("^" in plain) == (sys.version_info >= (3, 11))  # 3.11+ shows carets for these
        converted = to_graph(fn)
        assert _innermost(converted, *args) == plain, fn
        prev = operators.force_functional(True)
        try:
            functional = _innermost(converted, *args)
        finally:
            operators.force_functional(prev)
        head, *carets = functional.splitlines()[1:]
        assert head == plain.splitlines()[1] and carets in ([], plain.splitlines()[2:]), functional

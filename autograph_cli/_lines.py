"""Compiling generated code so that it reports the user's lines.

Converted code is printed with extra lines (helper functions, guards), and a
line map says which original line each generated line stands for. The code is
compiled as it is and the finished code objects get their line numbers
rewritten: ``co_firstlineno`` and the location table (PEP 657; the format is
CPython's ``Objects/locations.md``, unchanged from 3.11 to 3.13). Given the
user's file, columns are mapped as well (see ``compile_mapped``).

Where that format is not known (3.10, 3.14 and later) the generated source is
parsed with ``ast``, every node's line is mapped and the tree is compiled: the
same result, about three times the cost.
"""
from __future__ import annotations

import ast
import re
import sys
import types
from typing import Callable, Protocol, TypeGuard

LineOf = Callable[[int], int]

_REWRITES_TABLE = (3, 11) <= sys.version_info[:2] <= (3, 13)

# Location-table entry kinds (the 4 bits after the entry's marker bit).
_NO_COLUMNS = 13
_LONG = 14
_NONE = 15


def compile_mapped(source: str, filename: str, line_of: LineOf, original=None, flags: int = 0) -> types.CodeType:
    """``compile(source, filename, "exec")`` with generated line ``i``
    reported as ``line_of(i)`` (also in end lines, where a span that folds
    onto one line keeps a column range that does not end before it starts).

    ``original`` (the lines of the file the user sees) maps columns too: a
    generated line that is an original line re-indented gets its columns
    shifted by the indentation; on a generated line the user never wrote
    (a helper call, a stub) the columns are dropped, so that a traceback
    shows the user's line without carets rather than carets under the wrong
    characters. Without ``original`` the columns stay as generated.
    ``flags``: the ``__future__`` features of the user's module (see
    ``future_flags``)."""
    if _REWRITES_TABLE:
        columns = _Columns(source, original, line_of) if original is not None else None
        return _remap(compile(source, filename, "exec", flags=flags, dont_inherit=True), line_of, columns)
    return compile(mapped_tree(source, line_of), filename, "exec", flags=flags, dont_inherit=True)


def future_flags(code: types.CodeType) -> int:
    """The ``__future__`` features ``code`` was compiled with (its module's:
    ``from __future__ import annotations`` ...), as ``compile`` flags: code
    generated from a function of that module is compiled with them."""
    import __future__

    mask = 0
    for name in __future__.all_feature_names:
        mask |= getattr(__future__, name).compiler_flag
    return code.co_flags & mask


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as Python numbers them (\\n, \\r\\n, \\r)."""
    return _NEWLINE.split(text)


_NEWLINE = re.compile(r"\r\n|\r|\n")


class _Columns:
    """Per generated line: the shift that turns its columns into the
    original line's, or None (not a line the user wrote)."""

    def __init__(self, source: str, original, line_of: LineOf):
        self.generated = split_lines(source)
        self.original = original
        self.line_of = line_of
        self.shifts: dict[int, int | None] = {}

    def shift(self, line: int) -> int | None:
        if line in self.shifts:
            return self.shifts[line]
        shift = None
        if 1 <= line <= len(self.generated):
            gen = self.generated[line - 1]
            target = self.line_of(line)
            orig = self.original[target - 1] if 1 <= target <= len(self.original) else ""
            text = gen.strip()
            if text and text == orig.strip():
                shift = (len(orig) - len(orig.lstrip())) - (len(gen) - len(gen.lstrip()))
        self.shifts[line] = shift
        return shift


class _Located(Protocol):
    """A node with a position (statements, expressions, arguments, ...)."""

    lineno: int
    col_offset: int
    end_lineno: int | None
    end_col_offset: int | None


def _located(node: ast.AST) -> TypeGuard[_Located]:
    return getattr(node, "lineno", None) is not None


def mapped_tree(source: str, line_of: LineOf) -> ast.Module:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if not _located(node):
            continue
        lineno = node.lineno
        start = line_of(lineno)
        node.lineno = start
        end = getattr(node, "end_lineno", None)
        if end is not None:
            node.end_lineno = max(start, line_of(end))
            if node.end_lineno == start and end != lineno:
                node.end_col_offset = max(node.end_col_offset or 0, node.col_offset)
    return tree


def _remap(code: types.CodeType, line_of: LineOf, columns: "_Columns | None" = None) -> types.CodeType:
    consts = code.co_consts
    if any(type(c) is types.CodeType for c in consts):
        consts = tuple(_remap(c, line_of, columns) if type(c) is types.CodeType else c for c in consts)
    first = line_of(code.co_firstlineno)
    table = _table(code, line_of, first, columns)
    return code.replace(co_firstlineno=first, co_linetable=table, co_consts=consts)


def _table(code: types.CodeType, line_of: LineOf, first: int, columns: "_Columns | None" = None) -> bytes:
    """A location table with every line mapped: one entry per run of equal
    positions (at most 8 code units each)."""
    if sys.version_info < (3, 11):  # (only called where _REWRITES_TABLE)
        raise RuntimeError("no location tables before Python 3.11")
    out = bytearray()
    prev_line = first
    run, length = None, 0
    for pos in code.co_positions():
        line, end_line, col, end_col = pos
        if columns is not None and line is not None and col is not None:
            start, end = columns.shift(line), columns.shift(end_line if end_line is not None else line)
            if start is None or end is None or end_col is None or col + start < 0 or end_col + end < 0:
                pos = (line, end_line, None, None)  # not a place in the user's text
            else:
                pos = (line, end_line, col + start, end_col + end)
        if pos == run and length < 8:
            length += 1
            continue
        if length:
            prev_line = _entry(out, run, length, prev_line, line_of)
        run, length = pos, 1
    if length:
        _entry(out, run, length, prev_line, line_of)
    return bytes(out)


def _entry(out: bytearray, pos, length: int, prev_line: int, line_of: LineOf) -> int:
    """Append one entry in the smallest form that holds it, as CPython's
    compiler chooses; return the line the next entry is relative to."""
    line, end_line, col, end_col = pos
    marker = 0x80 | length - 1
    if line is None:
        out.append(marker | _NONE << 3)
        return prev_line
    start = line_of(line)
    delta = start - prev_line
    if col is None and end_col is None and end_line in (None, line):
        out.append(marker | _NO_COLUMNS << 3)
        _svarint(out, delta)
        return start
    end = start if end_line is None else max(start, line_of(end_line))
    if end == start and end_line != line and col is not None and end_col is not None:
        end_col = max(end_col, col)
    if end == start and col is not None and end_col is not None:
        if delta == 0 and col < 80 and 0 <= end_col - col < 16:
            out.append(marker | (col >> 3) << 3)
            out.append((col & 7) << 4 | end_col - col)
            return start
        if 0 <= delta < 3 and col < 128 and end_col < 128:
            out.append(marker | (10 + delta) << 3)
            out.append(col)
            out.append(end_col)
            return start
    out.append(marker | _LONG << 3)
    _svarint(out, delta)
    _varint(out, end - start)
    _varint(out, 0 if col is None else col + 1)  # 0: unknown
    _varint(out, 0 if end_col is None else end_col + 1)
    return start


def _varint(out: bytearray, value: int) -> None:
    while value >= 64:
        out.append(64 | value & 63)
        value >>= 6
    out.append(value)


def _svarint(out: bytearray, value: int) -> None:
    _varint(out, -value << 1 | 1 if value < 0 else value << 1)

"""What makes the converter leave a function as it is, found once for both
the converter (its report's reason) and ``autograph check`` (AG401-AG404).

``constructs(func, shadowed)`` lists, in source order, the constructs of a
function's own scope (comprehensions included: since Python 3.12 they run
in it; nested functions, classes and lambdas are not entered, only their
decorators, defaults, bases and keywords, which run here):

- ``async``: the function is ``async def`` (the def itself);
- ``yield``: a ``yield``/``yield from`` (a generator: the converter keeps
  the statements that yield as Python statements);
- ``locals``: a call of ``locals()``, ``vars()`` without arguments,
  ``exec(...)`` or ``eval(...)``, builtins the code does not rebind
  (``shadowed`` says which names the function or its module binds): they
  need the function's real local variables;
- ``finally``: ``return`` inside a ``finally`` that can end without one
  (a ``finally`` whose every path ends in ``return`` or ``raise`` is
  converted: whatever the ``try`` raised or returned is dropped, as Python
  does), or ``break``/``continue`` inside ``finally`` and outside any loop
  inside it;
- ``import *``, ``await``, ``async for``: outside an ``async def`` Python's
  compiler rejects these; ``ast`` parses them.

Everything but ``yield`` makes the converter leave the function unconverted.

``_statements.ConverterView`` gives the converter the same answer for its
libcst functions, from their ``ast`` nodes; ``word_lines`` is its
prefilter: a function or statement whose lines spell none of the
constructs' keywords is not walked (most functions: conversion speed).
"""
from __future__ import annotations

import ast
import bisect
from typing import Callable

from ._walk import child_nodes

LOCALS_READERS = frozenset({"locals", "vars", "exec", "eval"})


#: ``in_finally`` of a ``finally`` every path of which returns or raises:
#: its returns are converted (only break/continue leaving it are not)
RETURNS_OK = "returns ok"


def ends_in_return(stmts) -> bool:
    """Whether every path through ``stmts`` ends in ``return`` or ``raise``
    (judged by the last statement: an if/else whose branches all do)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If) and last.orelse:
        return ends_in_return(last.body) and ends_in_return(last.orelse)
    return False


class Construct:
    __slots__ = ("kind", "node", "reason")

    def __init__(self, kind: str, node: ast.AST, reason: str):
        self.kind = kind
        self.node = node
        self.reason = reason  # what the converter's report says

    def __repr__(self) -> str:
        return f"Construct({self.kind!r}, line {getattr(self.node, 'lineno', '?')}, {self.reason!r})"


def constructs(func: ast.FunctionDef | ast.AsyncFunctionDef, shadowed: Callable[[str], bool],
               lines: list[int] | None = None) -> list[Construct]:
    """The constructs of ``func``'s own scope that the converter cannot
    keep (see the module docstring), in source order. ``lines`` (a speed-up:
    ``word_lines`` of the source) skips the expressions on other lines."""
    out: list[Construct] = []
    if isinstance(func, ast.AsyncFunctionDef):
        out.append(Construct("async", func, "async function"))
    _Walk(out, shadowed, lines).block(func.body, False, 0)
    out.sort(key=lambda c: (c.node.lineno, c.node.col_offset))
    return out


class _Walk:
    def __init__(self, out: list[Construct], shadowed: Callable[[str], bool], lines: list[int] | None):
        self.out = out
        self.shadowed = shadowed
        self.lines = lines

    def block(self, stmts, in_finally: bool | str, loops: int) -> None:
        for st in stmts:
            self.stmt(st, in_finally, loops)

    def stmt(self, st: ast.stmt, in_finally: bool | str, loops: int) -> None:
        """``loops``: how many loops inside the innermost ``finally`` enclose ``st``."""
        if self.lines is not None and not in_finally and not spans_a_line(self.lines, st.lineno, st.end_lineno or st.lineno):
            return  # none of the words on its lines (a jump in a finally has none of its own)
        if isinstance(st, (ast.For, ast.AsyncFor, ast.While)):
            if isinstance(st, ast.AsyncFor):
                self.out.append(Construct("async for", st, "async for"))
            if isinstance(st, ast.While):
                self.expr(st.test)
            else:
                self.expr(st.target)
                self.expr(st.iter)
            self.block(st.body, in_finally, loops + 1)
            self.block(st.orelse, in_finally, loops)
        elif isinstance(st, ast.If):
            self.expr(st.test)
            self.block(st.body, in_finally, loops)
            self.block(st.orelse, in_finally, loops)
        elif isinstance(st, (ast.With, ast.AsyncWith)):
            for item in st.items:
                self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.expr(item.optional_vars)
            self.block(st.body, in_finally, loops)
        elif isinstance(st, ast.Try) or type(st).__name__ == "TryStar":
            self.block(st.body, in_finally, loops)
            for h in st.handlers:
                if h.type is not None:
                    self.expr(h.type)
                self.block(h.body, in_finally, loops)
            self.block(st.orelse, in_finally, loops)
            self.block(st.finalbody, RETURNS_OK if ends_in_return(st.finalbody) else True, 0)
        elif isinstance(st, ast.Match):
            self.expr(st.subject)
            for case in st.cases:
                self.expr(case.pattern)
                if case.guard is not None:
                    self.expr(case.guard)
                self.block(case.body, in_finally, loops)
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._outer_parts_of_def(st)
        elif isinstance(st, ast.ClassDef):
            for e in (*st.decorator_list, *st.bases, *(k.value for k in st.keywords)):
                self.expr(e)
        else:
            if isinstance(st, ast.Return):
                if in_finally and in_finally is not RETURNS_OK:
                    self.out.append(Construct("finally", st, "return inside finally"))
            elif isinstance(st, (ast.Break, ast.Continue)):
                if in_finally and loops == 0:
                    kind = "break" if isinstance(st, ast.Break) else "continue"
                    self.out.append(Construct("finally", st, f"{kind} inside finally"))
            elif isinstance(st, ast.ImportFrom):
                if any(a.name == "*" for a in st.names):
                    self.out.append(Construct("import *", st, "import *"))
            for child in child_nodes(st):
                self.expr(child)

    def _outer_parts_of_def(self, node) -> None:
        a = node.args
        for e in (*node.decorator_list, *a.defaults, *(d for d in a.kw_defaults if d is not None)):
            self.expr(e)

    def expr(self, e: ast.AST) -> None:
        lines = self.lines
        if lines is not None:
            first = getattr(e, "lineno", None)
            if first is not None and not spans_a_line(lines, first, e.end_lineno or first):
                return
        out = self.out
        stack = [e]
        while stack:
            node = stack.pop()
            t = type(node)
            if t is ast.Call:
                f = node.func
                if type(f) is ast.Name and f.id in LOCALS_READERS and (f.id != "vars" or not node.args) \
                        and not self.shadowed(f.id):
                    out.append(Construct("locals", node, f"calls {f.id}()"))
            elif t is ast.Yield or t is ast.YieldFrom:
                out.append(Construct("yield", node, "generator"))
            elif t is ast.Await:
                out.append(Construct("await", node, "uses await"))
            elif t is ast.Lambda:
                a = node.args
                stack.extend(a.defaults)
                stack.extend(d for d in a.kw_defaults if d is not None)
                continue
            elif t is ast.comprehension and node.is_async:
                out.append(Construct("async for", node.target, "async for"))
            stack.extend(child_nodes(node))


# A function whose text spells none of these words has no construct (a
# prefilter: a hit only means the function is walked).
_WORDS = ("async", "await", "yield", "finally", "locals", "vars", "exec", "eval", "import")
_IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def word_lines(source: str) -> list[int]:
    """The sorted numbers of the lines where ``source`` spells one of
    ``_WORDS`` as a whole word (``import`` only when a ``*`` follows)."""
    hits = []
    n = len(source)
    for word in _WORDS:
        size = len(word)
        i = source.find(word)
        while i >= 0:
            end = i + size
            if (i == 0 or source[i - 1] not in _IDENT) and (end == n or source[end] not in _IDENT):
                if word != "import" or source[end:end + 40].lstrip(" \t\\\r\n").startswith("*"):
                    hits.append(i)
            i = source.find(word, end)
    hits.sort()
    out: list[int] = []
    line, pos = 1, 0
    for i in hits:
        line += source.count("\n", pos, i)
        pos = i
        if not out or out[-1] != line:
            out.append(line)
    return out


def spans_a_line(lines: list[int], first: int, last: int) -> bool:
    """Whether one of the sorted ``lines`` lies in ``first..last``."""
    i = bisect.bisect_left(lines, first)
    return i < len(lines) and lines[i] <= last

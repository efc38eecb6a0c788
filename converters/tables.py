"""What the passes over one function share, declared.

- ``NodeTable``: the analysis facts and the source line of every statement,
  keyed by node. A pass that makes a statement (a flag assignment, a guard,
  a rebuilt loop) enters it here with the facts and line of the statement it
  came from, so that the passes after it read made and original statements
  alike. Entries are only ever added, never changed.
- ``FreshNames``: the generator of the names the converter makes up
  (helpers, flags): none is an identifier of the source, none repeats.
"""
from __future__ import annotations

import libcst as cst

from . import _nodes as n
from .analysis import Facts, FunctionInfo


def block_statements(block) -> list:
    """The statements of a block; a one-line suite becomes a statement line."""
    if type(block) is cst.SimpleStatementSuite:
        return [n.make(cst.SimpleStatementLine, body=block.body, trailing_whitespace=block.trailing_whitespace)]
    return list(block.body)


class FreshNames:
    """``fresh("if_body_3")``: the base, or the base with ``_`` appended
    until it is neither an identifier of the source nor a name made
    before (for the same function)."""

    __slots__ = ("_taken", "_used")

    def __init__(self, taken: frozenset):
        self._taken = taken  # the identifiers of the source
        self._used: set[str] = set()

    @property
    def made(self) -> set[str]:
        """The names made so far (the set itself)."""
        return self._used

    def __call__(self, base: str) -> str:
        candidate = base
        while candidate in self._used or candidate in self._taken:
            candidate += "_"
        self._used.add(candidate)
        return candidate


class NodeTable:
    """The facts (``analysis.Facts``) and the line of every statement of one
    function, the statements its passes made included."""

    __slots__ = ("info", "lines", "default_line", "_suite_lines", "last_lines")

    def __init__(self, info: FunctionInfo, lines: dict, default_line: int, last_lines: dict | None = None):
        self.info = info  # the function's analysis; info.facts is the facts table
        self.lines = lines  # node -> line (the module's table: statements of every function)
        self.default_line = default_line  # the def's line, for a node without one
        self._suite_lines: dict = {}
        # the user's statements -> their last line (statements made by the passes have none)
        self.last_lines = last_lines if last_lines is not None else {}

    def line_of(self, node) -> int:
        return self.lines.get(node, self.default_line)

    def after(self, block) -> int | None:
        """The line after ``block`` (an indented block of the user's, its
        statements perhaps rewritten): where its footer (the comments
        closing it) starts; None when unknown (it ends with a statement a
        pass made)."""
        stmt = block.body[-1] if block.body else None
        end = None
        footers = 0  # the footers of the innermost last blocks come first
        while stmt is not None:
            if end is None:
                end = self.last_lines.get(stmt.body[-1] if type(stmt) is cst.SimpleStatementLine else stmt)
            if type(stmt) is cst.SimpleStatementLine:
                break
            inner = last_block(stmt)
            if type(inner) is not cst.IndentedBlock or not inner.body:
                break
            footers += len(inner.footer)
            stmt = inner.body[-1]
        return None if end is None else end + footers + 1

    def facts(self, node) -> Facts | None:
        return self.info.facts.get(node)

    def reads(self, node) -> set:
        return self.info.reads(node)

    def writes(self, node) -> set:
        return self.info.writes(node)

    def add(self, node, origin, facts: Facts | None, line: int | None = None):
        """Enter a made ``node``: ``facts``, and the line of ``origin``
        (or ``line``). Returns ``node``."""
        self.lines[node] = self.line_of(origin) if line is None else line
        self.info.facts[node] = facts
        return node

    def add_facts(self, node, facts: Facts | None):
        """Enter the facts of a made node that has no line of its own (an
        expression, a small statement)."""
        self.info.facts[node] = facts
        return node

    def add_assignment(self, node, origin, reads=(), writes=()):
        """Enter a made statement line that binds ``writes`` (its small
        statements too)."""
        self.lines[node] = self.line_of(origin)
        self.info.facts[node] = Facts(set(reads), set(writes), set(writes))
        if type(node) is cst.SimpleStatementLine:
            for small in node.body:
                self.info.facts[small] = Facts(set(reads), set(writes), set(writes))
        return node

    def stmts(self, block) -> list:
        """The statements of a block; a one-line suite (``if x: break``)
        becomes one statement line that keeps the suite's facts and line
        (the same line object every time it is asked for)."""
        if type(block) is not cst.SimpleStatementSuite:
            return list(block.body)
        made = self._suite_lines.get(block)
        if made is None:
            made = block_statements(block)[0]
            self._suite_lines[block] = made
            if block in self.info.facts:
                self.info.facts[made] = self.info.facts[block]
            if block in self.lines:
                self.lines[made] = self.lines[block]
        return [made]

    def kept(self, stmt) -> bool:
        """In a generator: a statement that stays a Python statement (it
        yields, returns, or jumps out of a loop that stays)."""
        if not self.info.generator:
            return False
        f = self.info.facts.get(stmt)
        if f is None:
            return False
        if f.yields or f.returns:
            return True
        return any(self.kept(loop) for loop in f.jumps)


def last_block(stmt):
    """The block a compound statement ends with."""
    t = type(stmt)
    if t is cst.If:
        while type(stmt.orelse) is cst.If:
            stmt = stmt.orelse
        return stmt.orelse.body if stmt.orelse is not None else stmt.body
    if t is cst.Try or t.__name__ == "TryStar":
        if stmt.finalbody is not None:
            return stmt.finalbody.body
        if stmt.orelse is not None:
            return stmt.orelse.body
        return stmt.handlers[-1].body if stmt.handlers else stmt.body
    if t in (cst.For, cst.While):
        return stmt.orelse.body if stmt.orelse is not None else stmt.body
    if t.__name__ == "Match":
        return stmt.cases[-1].body
    return getattr(stmt, "body", None)

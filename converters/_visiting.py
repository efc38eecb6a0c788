"""Walking libcst trees without rebuilding them.

libcst's ``node.visit(visitor)`` rebuilds every node it passes through (a
new dataclass per node, validated), even for a read-only visitor: on a
module that costs about as much as parsing it again. The converters walk
every function several times, so they use these two bases instead:

- ``NodeVisitor.walk(node)``: calls ``visit_<Type>(node)`` (returning False
  skips the children) and ``leave_<Type>(node)``; builds nothing.
- ``NodeRewriter.rewrite(node)``: calls ``visit_<Type>(node)`` and
  ``leave_<Type>(original, updated)``; a node is rebuilt only when one of
  its children changed, so an untouched subtree comes back as the very same
  object.

Children are the fields that hold syntax (expressions, statements, blocks,
parameters, arguments ...), never whitespace, parentheses, commas or
operators: no converter looks at those.
"""
from __future__ import annotations

import dataclasses

import libcst as cst

from ._nodes import replace

# Fields that never hold a node a converter looks at.
_SKIPPED_FIELDS = frozenset(
    {
        "lpar", "rpar", "leading_lines", "lines_after_decorators", "header", "footer",
        "comma", "semicolon", "equal", "colon", "operator", "asynchronous", "dot",
        "relative", "trailing_whitespace", "lbracket", "rbracket", "lbrace", "rbrace",
        "star", "indent", "newline", "comment", "default_indent", "default_newline",
        "encoding", "has_trailing_newline", "value_whitespace",
    }
)

_TEXT = (str, bool, int)  # fields declared to hold text or flags (a Name's value ...)

_FIELDS: dict = {}  # node type -> the names of its fields that may hold syntax
_IS_NODE: dict = {}  # type -> whether a value of it is a node to walk


def child_fields(t) -> tuple:
    fs = _FIELDS.get(t)
    if fs is None:
        fs = _FIELDS[t] = tuple(
            f.name for f in dataclasses.fields(t)
            if f.name not in _SKIPPED_FIELDS and not f.name.startswith("whitespace") and f.type not in _TEXT
        )
    return fs


def _is_node(t) -> bool:
    r = _IS_NODE.get(t)
    if r is None:
        r = _IS_NODE[t] = issubclass(t, cst.CSTNode)
    return r


def _table(cls, prefix):
    table = {}
    for attr in dir(cls):
        if attr.startswith(prefix):
            type_name = attr[len(prefix):]
            if type_name and "_" not in type_name:
                table[type_name] = getattr(cls, attr)
    return table


class _TableDispatch:
    """Per-type hooks (``visit_If``, ``leave_Call`` ...) from tables built
    once per class."""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._visits = _table(cls, "visit_")
        cls._leaves = _table(cls, "leave_")

    def on_visit(self, node) -> bool:
        fn = self._visits.get(type(node).__name__)
        if fn is not None:
            r = fn(self, node)
            return True if r is None else r
        return True


class NodeVisitor(_TableDispatch):
    """A read-only walk: ``walk(node)``."""

    def on_leave(self, node) -> None:
        fn = self._leaves.get(type(node).__name__)
        if fn is not None:
            fn(self, node)

    def walk(self, node) -> None:
        if self.on_visit(node):
            t = type(node)
            fs = _FIELDS.get(t)
            if fs is None:
                fs = child_fields(t)
            for name in fs:
                v = getattr(node, name)
                t = type(v)
                if t is tuple or t is list:
                    for x in v:
                        is_node = _IS_NODE.get(type(x))
                        if is_node or (is_node is None and _is_node(type(x))):
                            self.walk(x)
                else:
                    is_node = _IS_NODE.get(t)
                    if is_node or (is_node is None and _is_node(t)):
                        self.walk(v)
        self.on_leave(node)


class NodeRewriter(_TableDispatch):
    """A rewrite that rebuilds only what changed: ``rewrite(node)``."""

    def on_leave(self, original, updated):
        fn = self._leaves.get(type(original).__name__)
        if fn is not None:
            return fn(self, original, updated)
        return updated

    def rewrite(self, node):
        updated = node
        if self.on_visit(node):
            changes = None
            t = type(node)
            fs = _FIELDS.get(t)
            if fs is None:
                fs = child_fields(t)
            for name in fs:
                v = getattr(node, name)
                t = type(v)
                if t is tuple or t is list:
                    new_items = None
                    for i, x in enumerate(v):
                        is_node = _IS_NODE.get(type(x))
                        if is_node or (is_node is None and _is_node(type(x))):
                            nx = self.rewrite(x)
                            if nx is not x:
                                if new_items is None:
                                    new_items = list(v)
                                new_items[i] = nx
                    if new_items is not None:
                        if changes is None:
                            changes = {}
                        changes[name] = new_items
                else:
                    is_node = _IS_NODE.get(t)
                    if is_node or (is_node is None and _is_node(t)):
                        nv = self.rewrite(v)
                        if nv is not v:
                            if changes is None:
                                changes = {}
                            changes[name] = nv
            if changes:
                updated = replace(node, **changes)
        return self.on_leave(node, updated)

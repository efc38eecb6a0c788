"""Cheaper libcst visitor dispatch.

libcst looks up ``visit_<Type>`` and ``visit_<Type>_<field>`` by building a
string and calling getattr for every node and every field. The converters
define no per-field hooks, so these bases skip the field lookups and resolve
the per-type hooks through a table built once per class.
"""
from __future__ import annotations

import libcst as cst


def _table(cls, prefix):
    table = {}
    for attr in dir(cls):
        if attr.startswith(prefix):
            type_name = attr[len(prefix):]
            if type_name and "_" not in type_name:
                table[type_name] = getattr(cls, attr)
    return table


class _TableDispatch:
    """Per-type hooks from tables; no per-field hooks."""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._visits = _table(cls, "visit_")
        cls._leaves = _table(cls, "leave_")

    def on_visit(self, node):
        fn = self._visits.get(type(node).__name__)
        if fn is not None:
            r = fn(self, node)
            return True if r is None else r
        return True

    def on_visit_attribute(self, node, attribute):
        pass

    def on_leave_attribute(self, original_node, attribute):
        pass


class FastVisitor(_TableDispatch, cst.CSTVisitor):
    def on_leave(self, original_node):
        fn = self._leaves.get(type(original_node).__name__)
        if fn is not None:
            fn(self, original_node)


class FastTransformer(_TableDispatch, cst.CSTTransformer):
    def on_leave(self, original_node, updated_node):
        fn = self._leaves.get(type(original_node).__name__)
        if fn is not None:
            return fn(self, original_node, updated_node)
        return updated_node

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
        if attr.startswith(prefix) and attr.count("_") >= 1:
            type_name = attr[len(prefix):]
            if type_name and "_" not in type_name:
                table[type_name] = getattr(cls, attr)
    return table


class FastVisitor(cst.CSTVisitor):
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

    def on_leave(self, original_node):
        fn = self._leaves.get(type(original_node).__name__)
        if fn is not None:
            fn(self, original_node)

    def on_visit_attribute(self, node, attribute):
        pass

    def on_leave_attribute(self, original_node, attribute):
        pass


class FastTransformer(cst.CSTTransformer):
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

    def on_leave(self, original_node, updated_node):
        fn = self._leaves.get(type(original_node).__name__)
        if fn is not None:
            return fn(self, original_node, updated_node)
        return updated_node

    def on_visit_attribute(self, node, attribute):
        pass

    def on_leave_attribute(self, original_node, attribute):
        pass

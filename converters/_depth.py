"""How deeply a syntax tree nests, checked without recursion.

libcst's native parser overflows its stack (a crash, not an exception) on
code nested a few thousand levels deep, which Python itself accepts on some
versions (3.10, 3.13: ``a+a+...+a`` of 7,000 terms); 3.11 and 3.12 raise
RecursionError in ``ast.parse`` well before. Every front door refuses such
code with the same located error, on every version.
"""
from __future__ import annotations

import ast

MAX_DEPTH = 3000  # syntax-tree nesting (a+a+...+a of n terms nests n deep)


def too_deep(tree: ast.AST, limit: int = MAX_DEPTH) -> bool:
    iter_child_nodes = ast.iter_child_nodes
    stack = [(tree, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        if depth > limit:
            return True
        for child in iter_child_nodes(node):
            push((child, depth + 1))
    return False

"""Fast child iteration over ``ast`` trees.

``ast.iter_child_nodes`` is two nested generators and also yields the
context and operator nodes (``Load``, ``Add`` ...), which double the nodes a
walk visits. The checker walks trees several times, so it uses this instead:
the fields that can hold nodes are computed once per node type.
"""
from __future__ import annotations

import ast

_SKIP = frozenset({"ctx", "op", "ops"})
_FIELDS: dict[type, tuple[str, ...]] = {}
_AST = ast.AST


def _fields(t: type) -> tuple[str, ...]:
    f = _FIELDS.get(t)
    if f is None:
        f = _FIELDS[t] = tuple(n for n in t._fields if n not in _SKIP)
    return f


def child_nodes(node: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = []
    for name in _FIELDS.get(type(node)) or _fields(type(node)):
        v = getattr(node, name, None)
        if v.__class__ is list:
            for x in v:
                if isinstance(x, _AST):
                    out.append(x)
        elif isinstance(v, _AST):
            out.append(v)
    return out


def target_names(target: ast.AST):
    """The names an assignment target binds (``a``, ``a, (b, *c)``; not ``a.x`` or ``a[i]``)."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            yield from target_names(elt)
    elif isinstance(target, ast.Starred):
        yield from target_names(target.value)


def walk(node: ast.AST):
    """Every node below ``node`` (and itself), depth-first, in no promised order."""
    stack = [node]
    pop = stack.pop
    extend = stack.extend
    while stack:
        n = pop()
        yield n
        extend(child_nodes(n))

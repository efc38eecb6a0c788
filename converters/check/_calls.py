"""Rules that look at calls between functions: AG104 (recursion) and the
call-site evidence AG204 uses (what the module passes to a staged function)."""
from __future__ import annotations

import ast

from converters.check._module import FuncInfo, ModuleInfo
from converters.check._types import TENSOR, Classifier


class IteratorEvidence:
    """Whether every call of a staged function in this module passes a tf.data
    iterator (``iter(<dataset>)``) for a parameter. Without any call, no."""

    def __init__(self, module: ModuleInfo, classify: Classifier):
        self.module = module
        self.classify = classify
        self._calls: dict[str, list[ast.Call]] | None = None

    def _index(self) -> dict[str, list[ast.Call]]:
        if self._calls is None:
            self._calls = {}
            for n in ast.walk(self.module.tree):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                    self._calls.setdefault(n.func.id, []).append(n)
        return self._calls

    def __call__(self, fi: FuncInfo, param: str) -> bool:
        a = fi.node.args
        for p in a.posonlyargs + a.args + a.kwonlyargs:
            if p.arg == param and p.annotation is not None and self.module.is_tf(p.annotation):
                return True
        if fi.is_method:
            return False
        positional = [p.arg for p in a.posonlyargs + a.args]
        index = positional.index(param) if param in positional else None
        calls = self._index().get(fi.node.name, [])
        if not calls:
            return False
        for call in calls:
            arg = None
            if index is not None and index < len(call.args):
                arg = call.args[index]
            for kw in call.keywords:
                if kw.arg == param:
                    arg = kw.value
            if arg is None or not self._is_tf_iterator(arg, call.lineno):
                return False
        return True

    def _is_tf_iterator(self, e: ast.AST, line: int) -> bool:
        if isinstance(e, ast.Name):
            value = self.module.last_assign(e.id, line)
            if value is None:
                return False
            e = value
        if (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "iter"
                and "iter" not in self.module.bound and len(e.args) == 1):
            return self.classify(e.args[0]) == TENSOR
        return self.classify(e) == TENSOR


def recursion_reports(staged: list[tuple[FuncInfo, list]], report) -> None:
    """Report direct and mutual recursion among staged functions.

    ``staged`` pairs each staged function with the calls its own scope makes:
    ``(call, 'name' | 'self', callee)``. A bare name resolves to the last
    function of that name defined beside the caller (what the name is bound
    to once the module has run); ``self.m`` to a method of the same class.
    """
    by_scope: dict[tuple[int, str], FuncInfo] = {}
    for fi, _ in staged:
        by_scope[(id(fi.parent), fi.node.name)] = fi  # sorted by line: the last one wins

    def resolve(fi: FuncInfo, kind: str, callee: str) -> FuncInfo | None:
        if kind == "self":
            return by_scope.get((id(fi.parent), callee)) if fi.is_method else None
        if fi.is_method:
            return None  # a bare name in a method is not the method
        if callee == fi.node.name:
            return fi
        return by_scope.get((id(fi.parent), callee))

    edges: dict[int, list[tuple[ast.Call, FuncInfo]]] = {}
    for fi, calls in staged:
        out = []
        for call, kind, callee in calls:
            target = resolve(fi, kind, callee)
            if target is not None:
                out.append((call, target))
        edges[id(fi)] = out

    def reaches(start: FuncInfo, goal: FuncInfo) -> bool:
        seen = {id(start)}
        stack = [start]
        while stack:
            cur = stack.pop()
            for _call, nxt in edges.get(id(cur), ()):
                if nxt is goal:
                    return True
                if id(nxt) not in seen:
                    seen.add(id(nxt))
                    stack.append(nxt)
        return False

    for fi, _ in staged:
        for call, target in edges[id(fi)]:
            name = fi.node.name
            if target is fi:
                report(call, "AG104", (
                    f"'{name}' calls itself, and a staged function cannot recurse (each call traces the "
                    f"function again); rewrite the recursion as a loop."))
            elif reaches(target, fi):
                report(call, "AG104", (
                    f"'{name}' calls '{target.node.name}', which calls back into '{name}', and staged functions "
                    f"cannot recurse; rewrite the recursion as a loop."))

"""Rules that look at calls between functions: AG104 (recursion) and the
call-site evidence AG204 uses (what the module passes to a staged function)."""
from __future__ import annotations

import ast

from ..analysis import PY, Classifier, FuncInfo, ModuleInfo, walk


class IteratorEvidence:
    """Where the module passes a plain Python iterator to a staged function.

    ``next(param)`` is reported only on evidence: a call of the function
    whose argument is ``iter(<a Python container>)``, a generator expression,
    a call of a generator function of this module, or a name last assigned
    one of those. A ``tf.data`` iterator (``iter(dataset)``) is the correct
    idiom, and an argument of unknown origin is given the benefit of the doubt.
    """

    _ITER_BUILTINS = frozenset({"iter", "map", "filter", "zip", "enumerate", "reversed"})

    def __init__(self, module: ModuleInfo, classify: Classifier):
        self.module = module
        self.classify = classify
        self._calls: dict[str, list[ast.Call]] | None = None
        self._assigns: dict[str, list[tuple[int, ast.expr]]] = {}
        self._generators: set[str] = set()
        self._attr_assigns: dict[str, list[tuple[int, ast.expr]]] = {}

    def _index(self) -> dict[str, list[ast.Call]]:
        if self._calls is None:
            self._calls = {}
            for n in walk(self.module.tree):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                    self._calls.setdefault(n.func.id, []).append(n)
                elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                    self._assigns.setdefault(n.targets[0].id, []).append((n.lineno, n.value))
                elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute):
                    self._attr_assigns.setdefault(n.targets[0].attr, []).append((n.lineno, n.value))
                elif isinstance(n, ast.FunctionDef):
                    if any(isinstance(x, (ast.Yield, ast.YieldFrom)) for x in walk(n)):
                        self._generators.add(n.name)
            for values in self._assigns.values():
                values.sort(key=lambda lv: lv[0])
            for calls in self._calls.values():
                calls.sort(key=lambda c: (c.lineno, c.col_offset))
        return self._calls

    def python_iterator_call(self, fi: FuncInfo, param: str) -> int | None:
        """The line of a call that passes a Python iterator for ``param``, or None."""
        a = fi.node.args
        for p in a.posonlyargs + a.args + a.kwonlyargs:
            if p.arg == param and p.annotation is not None and self.module.is_tf(p.annotation):
                return None
        if fi.is_method:
            return None
        positional = [p.arg for p in a.posonlyargs + a.args]
        index = positional.index(param) if param in positional else None
        for call in self._index().get(fi.node.name, []):
            arg = None
            if index is not None and index < len(call.args):
                arg = call.args[index]
            for kw in call.keywords:
                if kw.arg == param:
                    arg = kw.value
            if arg is not None and self._is_python_iterator(arg, call.lineno):
                return call.lineno
        return None

    def python_iterator_attribute(self, attr: str) -> int | None:
        """The line where the module stores a Python iterator in ``<obj>.attr``, or None."""
        self._index()
        for line, value in sorted(self._attr_assigns.get(attr, ()), key=lambda lv: lv[0]):
            if self._is_python_iterator(value, line):
                return line
        return None

    def _last_assign(self, name: str, line: int) -> ast.expr | None:
        found = None
        for l, value in self._assigns.get(name, ()):
            if l < line:
                found = value
        return found

    def _is_python_iterator(self, e: ast.AST, line: int, depth: int = 0) -> bool:
        if isinstance(e, ast.Name) and depth < 4:
            value = self._last_assign(e.id, line)
            return value is not None and self._is_python_iterator(value, line, depth + 1)
        if isinstance(e, ast.GeneratorExp):
            return True
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name):
            name = e.func.id
            if name in self._generators:
                return True
            if name in self._ITER_BUILTINS and name not in self.module.bound and e.args:
                return all(self._is_python_container(x, line) for x in e.args)
        return False

    def _is_python_container(self, e: ast.AST, line: int, depth: int = 0) -> bool:
        if isinstance(e, ast.Name) and depth < 4:
            value = self._last_assign(e.id, line)
            return value is not None and self._is_python_container(value, line, depth + 1)
        if isinstance(e, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp,
                          ast.GeneratorExp, ast.Constant)):
            return True
        if isinstance(e, ast.BinOp):  # `[(1, 1)] * 3`
            return self.classify(e) == PY
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name):
            return e.func.id in ("range", "list", "tuple", "sorted", "dict", "set") and e.func.id not in self.module.bound
        return False


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

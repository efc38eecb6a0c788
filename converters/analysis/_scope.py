"""One staged function's own scope: its parameters, locals, declarations, and
a flow-insensitive guess of which locals hold tensors."""
from __future__ import annotations

import ast

from ._module import FuncInfo, ModuleInfo, is_tf_qualname
from ._types import BOTTOM, PY, TENSOR, UNKNOWN, Classifier, join
from ._walk import child_nodes, target_names, walk

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def own_nodes(func: ast.AST):
    """Every node of a function's own scope, in no particular order.

    Nested functions, classes and lambdas are yielded themselves (they bind a
    name here; their decorators and defaults run here) but not entered.
    Comprehensions are entered: they run here.
    """
    stack = list(func.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(node.decorator_list)
            stack.extend(node.args.defaults)
            stack.extend(d for d in node.args.kw_defaults if d is not None)
        elif isinstance(node, ast.ClassDef):
            stack.extend(node.decorator_list)
            stack.extend(node.bases)
        elif isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults)
            stack.extend(d for d in node.args.kw_defaults if d is not None)
        else:
            stack.extend(child_nodes(node))


def root_name(e: ast.AST) -> str | None:
    """``a`` for ``a.b[c].d(...)``; None when the chain does not start at a name."""
    while True:
        if isinstance(e, ast.Name):
            return e.id
        if isinstance(e, (ast.Attribute, ast.Subscript)):
            e = e.value
        elif isinstance(e, ast.Call):
            e = e.func
        else:
            return None


class OwnScope:
    """The names a function's own scope binds (``nodes``: its ``own_nodes``).

    ``assigned``: bound by the function itself (not comprehension targets,
    not names declared ``global``/``nonlocal``); ``comp_names``:
    comprehension targets; ``locals``: ``assigned`` and the parameters.
    """

    __slots__ = ("globals", "nonlocals", "assigned", "comp_names", "locals")

    def __init__(self, nodes, params: set[str]):
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.assigned: set[str] = set()
        self.comp_names: set[str] = set()
        comp_target_ids: set[int] = set()
        for n in nodes:
            if isinstance(n, ast.comprehension):
                for sub in walk(n.target):
                    comp_target_ids.add(id(sub))
                    if isinstance(sub, ast.Name):
                        self.comp_names.add(sub.id)
        for n in nodes:
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                if id(n) not in comp_target_ids:
                    self.assigned.add(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.assigned.add(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for al in n.names:
                    if al.name != "*":
                        self.assigned.add(al.asname or al.name.split(".")[0])
            elif isinstance(n, ast.ExceptHandler) and n.name:
                self.assigned.add(n.name)
            elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
                self.assigned.add(n.name)
            elif isinstance(n, ast.MatchMapping) and n.rest:
                self.assigned.add(n.rest)
            elif isinstance(n, ast.Global):
                self.globals.update(n.names)
            elif isinstance(n, ast.Nonlocal):
                self.nonlocals.update(n.names)
        declared = self.globals | self.nonlocals
        self.assigned -= declared
        self.locals = (self.assigned | params) - declared


def param_names(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[str]:
    a = func.args
    return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if p is not None]


def own_scope(func: ast.FunctionDef | ast.AsyncFunctionDef) -> OwnScope:
    """The names ``func``'s own scope binds."""
    return OwnScope(list(own_nodes(func)), set(param_names(func)))


class Scope:
    def __init__(self, fi: FuncInfo, module: ModuleInfo, module_classes: dict[str, int]):
        self.fi = fi
        self.node = fi.node
        self.module = module
        self.nodes = list(own_nodes(fi.node))
        a = fi.node.args
        positional = a.posonlyargs + a.args
        self.params: list[ast.arg] = positional + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]
        self.param_names = {p.arg for p in self.params}
        self.self_name = positional[0].arg if fi.is_method and positional else None

        own = OwnScope(self.nodes, self.param_names)
        self.globals = own.globals
        self.nonlocals = own.nonlocals
        self.assigned = own.assigned
        self.comp_names = own.comp_names
        self.locals = own.locals
        declared = self.globals | self.nonlocals
        # Parameters the function never rebinds still refer to the caller's objects.
        self.outer_params = self.param_names - self.assigned - declared
        if a.kwarg is not None:  # `**kwargs` is a fresh dict on every call
            self.outer_params.discard(a.kwarg.arg)

        self._module_classes = module_classes
        self.classes: dict[str, int] = {}
        self.classify = Classifier(self._lookup, self.qualify, is_tf_qualname, self.shadowed)
        self._solve_classes()
        self._solve_tensor_sources()

    # -- names -------------------------------------------------------------
    def qualify(self, e: ast.AST) -> str | None:
        root = root_name(e)
        if root is not None and root in self.locals:
            return None
        return self.module.qualify(e)

    def shadowed(self, name: str) -> bool:
        return name in self.locals or name in self.module.bound

    def _lookup(self, name: str) -> int:
        if name in self.locals:
            return self.classes.get(name, BOTTOM)
        if name in self.module.aliases:
            return PY
        if name in self._module_classes:
            return self._module_classes[name]
        if name in ("True", "False", "None"):
            return PY
        return UNKNOWN

    def is_local(self, name: str) -> bool:
        """A name the function itself binds (not a parameter it leaves alone)."""
        return name in self.assigned or name in self.comp_names

    def is_outer(self, name: str | None) -> bool:
        """A name that refers to an object living outside the function."""
        if name is None or self.is_local(name):
            return False
        if name in self.param_names and name not in self.outer_params:
            return False  # `**kwargs`
        if name in self.module.aliases and name not in self.outer_params:
            return False  # a module, a function or a class from an import
        return True

    # -- tensor classes of locals ----------------------------------------
    def _bindings(self):
        for n in self.nodes:
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    yield from self._assign_pairs(t, n.value)
            elif isinstance(n, ast.AnnAssign) and n.value is not None:
                yield from self._assign_pairs(n.target, n.value)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                yield n.target.id, ("aug", n.target, n.value)
            elif isinstance(n, (ast.For, ast.AsyncFor)):
                for name in target_names(n.target):
                    yield name, ("elem", n.iter)
            elif isinstance(n, ast.NamedExpr):
                yield n.target.id, ("value", n.value)
            elif isinstance(n, (ast.With, ast.AsyncWith)):
                for item in n.items:
                    if item.optional_vars is not None:
                        for name in target_names(item.optional_vars):
                            yield name, ("const", UNKNOWN)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
                pass  # PY: the default below
            elif isinstance(n, (ast.ExceptHandler,)) and n.name:
                yield n.name, ("const", PY)

    def _assign_pairs(self, target, value):
        if isinstance(target, ast.Name):
            yield target.id, ("value", value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and not any(
                isinstance(x, ast.Starred) for x in target.elts + value.elts
            ):
                for t, v in zip(target.elts, value.elts):
                    yield from self._assign_pairs(t, v)
            else:
                for name in target_names(target):
                    yield name, ("part", value)
        elif isinstance(target, ast.Starred):
            for name in target_names(target):
                yield name, ("const", PY)

    def _solve_classes(self) -> None:
        classes = self.classes
        for name in self.assigned:
            classes[name] = BOTTOM
        for p in self.params:
            classes[p.arg] = UNKNOWN
        a = self.node.args
        positional = a.posonlyargs + a.args
        for p, d in zip(positional[len(positional) - len(a.defaults):], a.defaults):
            if isinstance(d, ast.Constant):
                classes[p.arg] = PY
        for p, d in zip(a.kwonlyargs, a.kw_defaults):
            if isinstance(d, ast.Constant):
                classes[p.arg] = PY
        if self.self_name:
            classes[self.self_name] = PY
        bindings = list(self._bindings())
        bound_by_rule = {name for name, _ in bindings}
        for name in self.assigned - bound_by_rule:
            if name not in self.param_names:
                classes[name] = PY  # defs, classes, imports
        cls = self.classify
        for _ in range(8):
            changed = False
            for name, rule in bindings:
                kind = rule[0]
                if kind == "value":
                    c = cls.classify(rule[1])
                elif kind == "aug":
                    c = cls.classify(ast.BinOp(rule[1], ast.Add(), rule[2]))
                elif kind == "elem":
                    c = cls.element(rule[1])
                elif kind == "part":
                    c = cls.classify(rule[1])
                    c = TENSOR if c == TENSOR else (BOTTOM if c == BOTTOM else UNKNOWN)
                else:
                    c = rule[1]
                old = classes.get(name, BOTTOM)
                new = join(old, c)
                if new != old:
                    classes[name] = new
                    changed = True
            if not changed:
                break
        for name, c in classes.items():
            if c == BOTTOM:
                classes[name] = UNKNOWN


    # -- names that can hold a tensor ----------------------------------------
    def _solve_tensor_sources(self) -> None:
        """Which locals can hold a tensor, and through which parameter: a
        staged function's parameters (a tensor whenever the caller passes
        one) and what is computed from them by arithmetic, comparisons and
        indexing. Results of tf calls are TENSOR already."""
        self.sources: dict[str, str] = {}
        for p in self.params:
            if p.arg != self.self_name and self.classes.get(p.arg) == UNKNOWN and p.arg not in self.assigned:
                self.sources[p.arg] = p.arg
        rules = [(name, rule) for name, rule in self._bindings() if rule[0] in ("value", "aug")]
        for p in self.params:  # a rebound parameter: a source where its bindings say so
            if p.arg != self.self_name and self.classes.get(p.arg) == UNKNOWN and p.arg in self.assigned:
                self.sources[p.arg] = p.arg
        for _ in range(8):
            changed = False
            for name, rule in rules:
                if name in self.sources:
                    continue
                src = self.tensor_source(rule[-1])
                if src is not None:
                    self.sources[name] = src
                    changed = True
            if not changed:
                break

    def tensor_source(self, e: ast.AST) -> str | None:
        """The parameter through which ``e`` can be a tensor (None: certainly
        not through one; a tf call's result is TENSOR, see ``classify``)."""
        try:
            return self._source(e)
        except RecursionError:
            return None

    def _source(self, e: ast.AST) -> str | None:
        if self.classify(e) == PY:
            return None
        if isinstance(e, ast.Name):
            return getattr(self, "sources", {}).get(e.id)
        if isinstance(e, ast.Compare):
            parts = [e.left, *e.comparators]
        elif isinstance(e, ast.BoolOp):
            parts = e.values
        elif isinstance(e, ast.BinOp):
            parts = [e.left, e.right]
        elif isinstance(e, ast.UnaryOp):
            parts = [e.operand]
        elif isinstance(e, ast.IfExp):
            parts = [e.body, e.orelse]
        elif isinstance(e, (ast.Subscript, ast.NamedExpr)):
            parts = [e.value]
        elif (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("abs", "min", "max", "round")
              and not self.shadowed(e.func.id)):
            parts = e.args
        else:
            return None
        for x in parts:
            src = self._source(x)
            if src is not None:
                return src
        return None


def module_classes(module: ModuleInfo) -> dict[str, int]:
    """Classes of module-level names, from their module-level assignments."""
    out: dict[str, int] = {}
    cls = Classifier(lambda n: out.get(n, PY if n in module.aliases else UNKNOWN), module.qualify, is_tf_qualname,
                     lambda n: n in module.bound)
    for name in module.bound:
        out[name] = PY if name not in module.assigns else BOTTOM
    for _ in range(4):
        changed = False
        for name, values in module.assigns.items():
            c = BOTTOM
            for _line, v in values:
                c = join(c, cls.classify(v))
            old = out.get(name, BOTTOM)
            new = join(old, c)
            if new != old:
                out[name] = new
                changed = True
        if not changed:
            break
    for name, c in out.items():
        if c == BOTTOM:
            out[name] = UNKNOWN
    return out

"""Module-level facts: import aliases, module globals, and which functions are staged.

A function is staged when it is decorated with the runtime's ``function``
(``@tf.function``, ``@tf.function(...)``, ``@function``, any alias the module
imports), when the module wraps it later (``g = tf.function(f)``), or when the
caller names its qualname in ``staged``.
"""
from __future__ import annotations

import ast
import fnmatch
from dataclasses import dataclass, field

from ._walk import child_nodes, target_names

# Modules whose ``function`` stages a Python function and whose names are ops.
TF_MODULES = ("tensorflow", "autograph_cli.tf", "autograph_cli.runtime")
FUNCTION_NAMES = frozenset([m + ".function" for m in TF_MODULES] + ["autograph_cli.runtime.function.function"])
VARIABLE_NAMES = frozenset([m + ".Variable" for m in TF_MODULES] + ["autograph_cli.runtime.variables.Variable"])

_FUNC_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPE_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def is_tf_qualname(q: str | None) -> bool:
    if not q:
        return False
    for m in TF_MODULES:
        if q == m or q.startswith(m + "."):
            return True
    return False


@dataclass
class FuncInfo:
    node: ast.FunctionDef | ast.AsyncFunctionDef
    qualname: str
    parent: ast.AST  # the Module, ClassDef or function whose body holds the def
    is_method: bool
    staged: bool = False


@dataclass
class ModuleInfo:
    tree: ast.Module
    aliases: dict[str, str] = field(default_factory=dict)  # import alias -> dotted name
    bound: set[str] = field(default_factory=set)  # names bound at module level, any way
    # ids of the Name nodes where a bare `tf` or `function` is a function's
    # own (a parameter, a local): never taken for TensorFlow's there
    local_refs: set[int] = field(default_factory=set)
    # module-level `name = value` assignments, in source order: name -> [(line, value)]
    assigns: dict[str, list[tuple[int, ast.expr]]] = field(default_factory=dict)
    functions: list[FuncInfo] = field(default_factory=list)
    # names the module binds again after their first top-level binding, or
    # that some function declares `global`: name -> line of that rebinding
    rebinds: dict[str, int] = field(default_factory=dict)
    # values of the top-level bindings of each name
    top_values: dict[str, list[ast.expr | None]] = field(default_factory=dict)

    def qualify(self, expr: ast.AST) -> str | None:
        """The dotted name an expression refers to through imports, or None.

        ``tf.data.Dataset`` with ``import autograph_cli.tf as tf`` gives
        ``autograph_cli.tf.data.Dataset``. ``tf`` and ``function`` that the
        module never binds are taken to mean TensorFlow's.
        """
        parts = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        name = expr.id
        base = self.aliases.get(name)
        if base is None:
            if name in self.bound or id(expr) in self.local_refs:
                return None
            if name == "tf":
                base = "tensorflow"
            elif name == "function":
                base = "tensorflow.function"
            else:
                return None
        parts.append(base)
        return ".".join(reversed(parts))

    def is_tf_function(self, expr: ast.AST) -> bool:
        return self.qualify(expr) in FUNCTION_NAMES

    def is_tf_variable(self, expr: ast.AST) -> bool:
        return self.qualify(expr) in VARIABLE_NAMES

    def is_tf(self, expr: ast.AST) -> bool:
        return is_tf_qualname(self.qualify(expr))


def _bind_import(info: ModuleInfo, node: ast.Import | ast.ImportFrom) -> None:
    if isinstance(node, ast.Import):
        for a in node.names:
            if a.asname:
                info.aliases[a.asname] = a.name
            else:
                top = a.name.split(".")[0]
                info.aliases[top] = top
    else:
        if node.level or not node.module:
            for a in node.names:
                info.bound.add(a.asname or a.name)
            return
        for a in node.names:
            if a.name == "*":
                continue
            info.aliases[a.asname or a.name] = node.module + "." + a.name


def _module_bindings(info: ModuleInfo, body: list[ast.stmt]) -> None:
    """Record module-level bindings, descending into if/try/with/loop bodies."""
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            _bind_import(info, stmt)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            info.bound.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                for n in target_names(t):
                    info.bound.add(n)
                if isinstance(t, ast.Name):
                    info.assigns.setdefault(t.id, []).append((stmt.lineno, stmt.value))
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            for n in target_names(stmt.target):
                info.bound.add(n)
            if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name):
                info.assigns.setdefault(stmt.target.id, []).append((stmt.lineno, stmt.value))
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            for n in target_names(stmt.target):
                info.bound.add(n)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    for n in target_names(item.optional_vars):
                        info.bound.add(n)
        for name in ("body", "orelse", "finalbody"):
            sub = getattr(stmt, name, None)
            if sub and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                _module_bindings(info, sub)
        for handler in getattr(stmt, "handlers", ()) or ():
            if handler.name:
                info.bound.add(handler.name)
            _module_bindings(info, handler.body)
        if isinstance(stmt, ast.Match):
            for case in stmt.cases:
                _module_bindings(info, case.body)
    # Imports bind names too; keep `bound` the set of every module-level name.
    info.bound.update(info.aliases)


def module_names(tree: ast.Module) -> set[str]:
    """Every name the module binds at module level, any way (imports,
    assignments, defs, loop and ``with`` targets, in any block that is not
    a function's or a class's): what shadows a builtin for its functions."""
    info = ModuleInfo(tree)
    _module_bindings(info, tree.body)
    return info.bound


def _is_staticmethod(node: ast.AST) -> bool:
    for dec in getattr(node, "decorator_list", ()):
        if isinstance(dec, ast.Name) and dec.id in ("staticmethod", "classmethod"):
            return True
    return False


def _decorated_staged(info: ModuleInfo, node: ast.AST) -> bool:
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if info.is_tf_function(target):
            return True
    return False


def scan_module(tree: ast.Module, staged: set[str] | frozenset[str] = frozenset()) -> ModuleInfo:
    info = ModuleInfo(tree)
    _module_bindings(info, tree.body)
    info.local_refs = _local_refs(tree, ("tf", "function"))
    nested_imports: list[ast.Import | ast.ImportFrom] = []
    top_lines: dict[str, list[int]] = {}
    for stmt in tree.body:
        pairs: list[tuple[str, ast.expr | None]] = []
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                value = stmt.value if isinstance(t, ast.Name) else None
                pairs.extend((n, value) for n in target_names(t))
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and isinstance(stmt.target, ast.Name):
            if not (isinstance(stmt, ast.AnnAssign) and stmt.value is None):
                pairs.append((stmt.target.id, None if isinstance(stmt, ast.AugAssign) else stmt.value))
        for n, value in pairs:
            top_lines.setdefault(n, []).append(stmt.lineno)
            info.top_values.setdefault(n, []).append(value)
    for n, lines in top_lines.items():
        if len(lines) >= 2:
            info.rebinds[n] = lines[1]
    calls: list[tuple[ast.Call, list[ast.AST]]] = []  # calls that may be `tf.function(f)`, with scopes

    # Iterative walk with the chain of enclosing scopes and the qualname prefix.
    stack: list[tuple[ast.AST, list[ast.AST], str]] = [(tree, [tree], "")]
    while stack:
        node, scopes, prefix = stack.pop()
        for child in child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                if len(scopes) > 1:
                    nested_imports.append(child)
            elif isinstance(child, ast.Global):
                for n in child.names:
                    info.rebinds[n] = min(info.rebinds.get(n, child.lineno), child.lineno)
            elif isinstance(child, _FUNC_TYPES):
                parent = scopes[-1]
                fi = FuncInfo(
                    child,
                    prefix + child.name,
                    parent,
                    isinstance(parent, ast.ClassDef) and not _is_staticmethod(child),
                )
                info.functions.append(fi)
                # decorators and defaults belong to the enclosing scope
                for sub in child.decorator_list + child.args.defaults + [d for d in child.args.kw_defaults if d]:
                    stack.append((sub, scopes, prefix))
                stack.append((_Body(child.body), scopes + [child], prefix + child.name + ".<locals>."))
            elif isinstance(child, ast.ClassDef):
                for sub in child.decorator_list + child.bases + [k.value for k in child.keywords]:
                    stack.append((sub, scopes, prefix))
                stack.append((_Body(child.body), scopes + [child], prefix + child.name + "."))
            else:
                if isinstance(child, ast.Call) and (child.args or child.keywords):
                    calls.append((child, scopes))
                stack.append((child, scopes, prefix))

    # Imports inside functions still alias a module for the code that uses them.
    for node in nested_imports:
        for a in node.names:
            local = a.asname or a.name.split(".")[0]
            if local not in info.aliases:
                if isinstance(node, ast.Import):
                    info.aliases[local] = a.name if a.asname else local
                elif node.module and not node.level and a.name != "*":
                    info.aliases[local] = node.module + "." + a.name

    patterns = [p for p in staged if any(c in p for c in "*?[")]
    for fi in info.functions:
        fi.staged = (_decorated_staged(info, fi.node) or fi.qualname in staged
                     or any(fnmatch.fnmatchcase(fi.qualname, p) for p in patterns))
    wraps: list[tuple[str, int, list[ast.AST]]] = []  # (name, line, scope chain)
    for call, scopes in calls:
        if info.is_tf_function(call.func):
            wrapped = call.args[0] if call.args else None
            for kw in call.keywords:
                if kw.arg == "func":
                    wrapped = kw.value
            if isinstance(wrapped, ast.Name):
                wraps.append((wrapped.id, call.lineno, scopes))

    info.functions.sort(key=lambda f: (f.node.lineno, f.node.col_offset))
    for name, line, scopes in wraps:
        for scope in reversed(scopes):
            candidates = [f for f in info.functions if f.parent is scope and f.node.name == name]
            if not candidates:
                continue
            before = [f for f in candidates if f.node.lineno <= line]
            chosen = before[-1] if before else candidates[0]
            chosen.staged = True
            break
    return info


class _Body(ast.AST):
    """A statement list presented as one node, so the walk can push it."""

    _fields = ("body",)

    def __init__(self, body):
        super().__init__()
        self.body = body


def _local_refs(tree: ast.Module, names) -> set[int]:
    """ids of the ``Name`` nodes reading one of ``names`` where a function
    (or an enclosing one) binds it: a parameter, an assignment, an import, a
    def. Such a bare ``tf`` or ``function`` is the code's own, not
    TensorFlow's; elsewhere in the module the same name can still be."""
    wanted = frozenset(names)
    refs: set[int] = set()

    def scope_parts(node):
        """(parts evaluated in the enclosing scope, parts in the new scope)."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            outer = [*node.decorator_list, *a.defaults, *[d for d in a.kw_defaults if d is not None]]
            if node.returns is not None:
                outer.append(node.returns)
            return outer, node.body
        if isinstance(node, ast.Lambda):
            a = node.args
            return [*a.defaults, *[d for d in a.kw_defaults if d is not None]], [node.body]
        return None

    def params(node):
        a = node.args
        every = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
        return {p.arg for p in every if p is not None and p.arg in wanted}

    def bindings(body) -> set[str]:
        found = set()
        stack = list(body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) and node.id in wanted:
                found.add(node.id)
            elif isinstance(node, ast.alias) and (node.asname or node.name).split(".")[0] in wanted:
                found.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name in wanted:
                    found.add(node.name)
                parts = scope_parts(node)
                stack.extend(parts[0] if parts else [*node.decorator_list, *node.bases, *node.keywords])
                continue
            elif isinstance(node, ast.Lambda):
                stack.extend(scope_parts(node)[0])
                continue
            stack.extend(ast.iter_child_nodes(node))
        return found

    def walk(nodes, bound: frozenset):
        stack = list(nodes)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in bound:
                refs.add(id(node))
            parts = scope_parts(node)
            if parts is not None:
                outer, inner = parts
                stack.extend(outer)
                walk(inner, bound | params(node) | bindings(inner))
                continue
            stack.extend(ast.iter_child_nodes(node))

    walk(tree.body, frozenset())
    return refs

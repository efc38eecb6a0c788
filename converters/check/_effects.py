"""Rules found by one walk over a staged function's own scope:

- AG104 recursion, AG201-AG204 Python side effects on outer state,
- AG301 ``tf.Variable`` created on every call.

Two idioms the seeds call correct are respected: state initialised once under
an ``if x is None:`` / ``if not x:`` guard (the singleton-Variable pattern),
and side effects lifted out of the graph with ``with tf.init_scope():``.
Lambdas and nested functions are not entered: they often are
``tf.py_function`` callbacks, which run Python on every call by design.
"""
from __future__ import annotations

import ast

from ..analysis import TENSOR, ModuleInfo, Scope, child_nodes, root_name

MUTATORS = frozenset(
    "append extend insert remove pop clear update setdefault add discard popitem sort reverse "
    "appendleft extendleft".split()
)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _is_none(e: ast.AST) -> bool:
    return isinstance(e, ast.Constant) and e.value is None


def guard_roots(test: ast.AST) -> tuple[set[str], set[str]]:
    """Roots of the objects an initialisation guard tests, for the body and the else.

    ``if x is None``, ``if not x``, ``if not hasattr(x, 'a')``, ``if len(x) == 0``
    guard the body; their negations guard the ``else``.
    """
    body: set[str] = set()
    other: set[str] = set()

    def add(e, positive):
        r = root_name(e)
        if r is not None:
            (body if positive else other).add(r)

    def visit(e, positive):
        if isinstance(e, ast.BoolOp):
            for v in e.values:
                visit(v, positive)
        elif isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            inner = e.operand
            if isinstance(inner, (ast.Name, ast.Attribute, ast.Subscript)):
                add(inner, positive)
            elif _is_hasattr(inner):
                add(inner.args[0], positive)
            else:
                visit(inner, not positive)
        elif _is_hasattr(e):
            add(e.args[0], not positive)
        elif isinstance(e, ast.Compare) and len(e.ops) == 1:
            op, left, right = e.ops[0], e.left, e.comparators[0]
            subject = left if _is_none(right) else right if _is_none(left) else None
            if subject is not None:
                if isinstance(op, (ast.Is, ast.Eq)):
                    add(subject, positive)
                elif isinstance(op, (ast.IsNot, ast.NotEq)):
                    add(subject, not positive)
            elif (isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "len"
                  and left.args and isinstance(right, ast.Constant) and right.value == 0):
                if isinstance(op, ast.Eq):
                    add(left.args[0], positive)
                elif isinstance(op, (ast.NotEq, ast.Gt)):
                    add(left.args[0], not positive)

    visit(test, True)
    return body, other


def _is_hasattr(e: ast.AST) -> bool:
    return (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "hasattr"
            and len(e.args) >= 1)


def _describe(e: ast.AST) -> str:
    try:
        text = ast.unparse(e)
    except Exception:  # pragma: no cover - unparse handles every expression node
        text = "..."
    return text if len(text) <= 40 else text[:37] + "..."


class _Ctx:
    __slots__ = ("guards", "init")

    def __init__(self, guards=frozenset(), init=False):
        self.guards = guards
        self.init = init

    def but(self, **kw):
        c = _Ctx(self.guards, self.init)
        for k, v in kw.items():
            setattr(c, k, v)
        return c


class Effects:
    def __init__(self, scope: Scope, module: ModuleInfo, report, evidence):
        self.scope = scope
        self.module = module
        self.report = report
        self.evidence = evidence  # _calls.IteratorEvidence: where Python iterators come from
        self.fi = scope.fi
        self.global_written: set[str] = set()
        self.calls: list[tuple[ast.Call, str, str]] = []  # (call, kind 'name'|'self', callee name)

    def run(self) -> None:
        for st in self.fi.node.body:
            self.visit(st, _Ctx())

    # -- traversal ---------------------------------------------------------
    def visit(self, node: ast.AST, ctx: _Ctx) -> None:
        if isinstance(node, ast.expr):
            self.expr(node, ctx)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in node.decorator_list + node.args.defaults + [d for d in node.args.kw_defaults if d]:
                self.visit(sub, ctx)
            return
        if isinstance(node, ast.ClassDef):
            for sub in node.decorator_list + node.bases:
                self.visit(sub, ctx)
            return
        if isinstance(node, ast.Lambda):
            for sub in node.args.defaults + [d for d in node.args.kw_defaults if d]:
                self.visit(sub, ctx)
            return
        if isinstance(node, ast.If):
            self.visit(node.test, ctx)
            body_roots, else_roots = guard_roots(node.test)
            bctx = ctx.but(guards=ctx.guards | body_roots) if body_roots else ctx
            ectx = ctx.but(guards=ctx.guards | else_roots) if else_roots else ctx
            for st in node.body:
                self.visit(st, bctx)
            for st in node.orelse:
                self.visit(st, ectx)
            return
        if isinstance(node, (ast.With, ast.AsyncWith)):
            init = ctx.init
            for item in node.items:
                self.visit(item.context_expr, ctx)
                if item.optional_vars is not None:
                    self.target(item.optional_vars, ctx, node)
                e = item.context_expr
                if isinstance(e, ast.Call) and self._qual(e.func, "init_scope"):
                    init = True
            bctx = ctx.but(init=True) if init and not ctx.init else ctx
            for st in node.body:
                self.visit(st, bctx)
            return
        if isinstance(node, _LOOPS):
            if isinstance(node, ast.While):
                self.visit(node.test, ctx)
            else:
                self.visit(node.iter, ctx)
                self.target(node.target, ctx, node)
            for st in node.body:
                self.visit(st, ctx)
            for st in node.orelse:
                self.visit(st, ctx)
            return
        if isinstance(node, ast.Assign):
            for t in node.targets:
                self.target(t, ctx, node)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            if not (isinstance(node, ast.AnnAssign) and node.value is None):
                self.target(node.target, ctx, node)
        elif isinstance(node, ast.Delete):
            for t in node.targets:
                self.target(t, ctx, node)
        # Children: statements recursively (nesting is bounded by the parser),
        # expressions iteratively. Writes are reported only from their
        # statements above, so walking targets again is harmless.
        for child in child_nodes(node):
            self.visit(child, ctx)

    def expr(self, e: ast.expr, ctx: _Ctx) -> None:
        """Calls and walrus targets anywhere in an expression."""
        stack = [e]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Lambda):
                stack.extend(node.args.defaults)
                stack.extend(d for d in node.args.kw_defaults if d is not None)
                continue
            if isinstance(node, ast.NamedExpr):
                self.target(node.target, ctx, node)
            elif isinstance(node, ast.Call):
                self.call(node, ctx)
            stack.extend(child_nodes(node))

    def _qual(self, e: ast.AST, last: str) -> bool:
        q = self.scope.qualify(e)
        return q is not None and q.rsplit(".", 1)[-1] == last and self.module.is_tf(e)

    # -- writes ------------------------------------------------------------
    def target(self, t: ast.AST, ctx: _Ctx, stmt: ast.AST) -> None:
        if isinstance(t, ast.Name):
            if (t.id in self.scope.globals or t.id in self.scope.nonlocals) and t.id not in ctx.guards:
                if t.id not in self.global_written:
                    self.global_written.add(t.id)
                    kind = "global" if t.id in self.scope.globals else "nonlocal"
                    if not ctx.init:
                        self.report(t, "AG202", (
                            f"writing the {kind} '{t.id}' is a Python side effect that happens only while tracing "
                            f"and can leak a graph tensor; return the value instead, or keep it in a `tf.Variable` "
                            f"and call `.assign`."))
        elif isinstance(t, (ast.Tuple, ast.List)):
            for elt in t.elts:
                self.target(elt, ctx, stmt)
        elif isinstance(t, ast.Starred):
            self.target(t.value, ctx, stmt)
        elif isinstance(t, (ast.Attribute, ast.Subscript)):
            root = root_name(t)
            if not self.scope.is_outer(root) or ctx.init or root in ctx.guards:
                return
            if isinstance(t, ast.Attribute):
                self.report(t, "AG203", (
                    f"setting `{_describe(t)}` changes an object that lives outside the staged function, which "
                    f"happens only while tracing; return the value, or keep the state in a `tf.Variable` and "
                    f"call `.assign`."))
            else:
                verb = "deleting" if isinstance(stmt, ast.Delete) else "setting"
                self.report(t, "AG201", (
                    f"{verb} `{_describe(t)}` mutates `{_describe(t.value)}`, which lives outside the staged function, so it "
                    f"happens only while tracing; return the values, or accumulate them in a `tf.TensorArray`."))

    # -- calls -------------------------------------------------------------
    def _next(self, call: ast.Call, arg: ast.AST) -> None:
        scope = self.scope
        line = where = None
        if isinstance(arg, ast.Name) and arg.id in scope.outer_params:
            line = self.evidence.python_iterator_call(self.fi, arg.id)
            where = "passed in"
        elif (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and scope.self_name
              and arg.value.id == scope.self_name):
            line = self.evidence.python_iterator_attribute(arg.attr)
            where = "stored"
        if line is not None:
            self.report(call, "AG204", (
                f"`next({_describe(arg)})` advances the Python iterator {where} at line {line} only while tracing, "
                f"so later calls reuse the traced value; pass an iterator over a `tf.data.Dataset` instead."))

    def call(self, call: ast.Call, ctx: _Ctx) -> None:
        f = call.func
        scope = self.scope
        if isinstance(f, ast.Attribute) and f.attr in MUTATORS:
            recv = f.value
            root = root_name(recv)
            if (scope.is_outer(root) and not ctx.init and root not in ctx.guards
                    and scope.classify(recv) != TENSOR and self.module.qualify(recv) is None):
                self.report(call, "AG201", (
                    f"`{_describe(recv)}.{f.attr}(...)` mutates `{_describe(recv)}`, which lives outside the staged "
                    f"function, so it happens only while tracing; return the values, or accumulate them in a "
                    f"`tf.TensorArray`."))
        if isinstance(f, ast.Name) and not scope.shadowed(f.id):
            if f.id == "next" and call.args:
                self._next(call, call.args[0])
        if self.module.is_tf_variable(f) and scope.qualify(f) is not None:
            if not ctx.guards and not ctx.init:
                self.report(call, "AG301", (
                    "this `tf.Variable` is created on every call, which a staged function does not allow; "
                    "create it once outside the function, or under an `if self.v is None:` guard."))
        # calls that may recurse
        if isinstance(f, ast.Name) and f.id not in scope.locals:
            self.calls.append((call, "name", f.id))
        elif (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and scope.self_name
              and f.value.id == scope.self_name):
            self.calls.append((call, "self", f.attr))

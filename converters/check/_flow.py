"""Control-flow rules: AG101 (defined in some branches), AG102 (defined only in a
loop), AG103 (tensor break/return in a Python loop) and AG105 (a staged `if`
returning on some paths of a function that can fall off its end).

A forward walk over the function's statements carries, for each local name,
whether it is defined (None) or maybe undefined because of a staged ``if`` or
loop (the origin: ``(code, node)``). Names the function has not assigned yet
are absent. Python ``if``s and loops join optimistically: a Python-level
"possibly unbound" is plain Python's business, not a staging pitfall.
"""
from __future__ import annotations

import ast

from ..analysis import PY, TENSOR, Scope, child_nodes, target_names

_ABSENT = object()
_COMPS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _join(states, origin):
    states = [s for s in states if s is not None]
    if not states:
        return None
    if len(states) == 1:
        return dict(states[0])
    keys: dict[str, None] = {}
    for s in states:
        keys.update(dict.fromkeys(s))
    out = {}
    for k in keys:
        vals = [s.get(k, _ABSENT) for s in states]
        maybe = next((v for v in vals if v is not None and v is not _ABSENT), None)
        if maybe is not None:
            out[k] = maybe
        elif origin is not None and any(v is _ABSENT for v in vals):
            out[k] = origin
        else:
            out[k] = None
    return out


def _reads(e: ast.AST, walrus: list[str]) -> list[ast.Name]:
    """Names an expression reads, outside lambdas and comprehension targets.
    Names bound by ``:=`` are appended to ``walrus``."""
    out = []
    stack: list[tuple[ast.AST, frozenset]] = [(e, frozenset())]
    while stack:
        n, ex = stack.pop()
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load) and n.id not in ex:
                out.append(n)
            continue
        if isinstance(n, ast.NamedExpr):
            walrus.append(n.target.id)
        if isinstance(n, ast.Lambda):
            stack.extend((d, ex) for d in n.args.defaults)
            stack.extend((d, ex) for d in n.args.kw_defaults if d is not None)
            continue
        if isinstance(n, _COMPS):
            names = set()
            for g in n.generators:
                names.update(target_names(g.target))
            inner = ex | names
            for i, g in enumerate(n.generators):
                stack.append((g.iter, ex if i == 0 else inner))
                stack.extend((c, inner) for c in g.ifs)
            if isinstance(n, ast.DictComp):
                stack.append((n.key, inner))
                stack.append((n.value, inner))
            else:
                stack.append((n.elt, inner))
            continue
        stack.extend((c, ex) for c in child_nodes(n))
    out.sort(key=lambda x: (x.lineno, x.col_offset))
    return out


def _pattern_names(p: ast.AST):
    for n in ast.walk(p):
        if isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            yield n.name
        elif isinstance(n, ast.MatchMapping) and n.rest:
            yield n.rest


def _returns(stmts: list[ast.stmt]) -> bool:
    """Whether a block always ends in ``return`` (directly or in every branch of an ``if``)."""
    for st in stmts:
        if isinstance(st, ast.Return):
            return True
        if isinstance(st, ast.If) and st.orelse and _returns(st.body) and _returns(st.orelse):
            return True
    return False


def _returns_value(stmts: list[ast.stmt]) -> bool:
    """Whether a block has a ``return`` with a value (outside nested scopes)."""
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return):
            if n.value is not None and not (isinstance(n.value, ast.Constant) and n.value.value is None):
                return True
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        elif isinstance(n, ast.stmt):
            stack.extend(c for c in ast.iter_child_nodes(n) if isinstance(c, ast.stmt))
    return False


class _Loop:
    __slots__ = ("breaks", "continues")

    def __init__(self):
        self.breaks = []
        self.continues = []


class Flow:
    def __init__(self, scope: Scope, report):
        self.scope = scope
        self.cls = scope.classify
        self.tracked = scope.assigned  # parameters start defined and stay tracked only if rebound
        self.report = report
        self.reported: set = set()
        self.frames: list[tuple] = []  # ("if", tensor, node, in_body) / ("loop", python, node)
        self._dumps: dict[int, str] = {}
        self.loops: list[_Loop] = []

    def run(self) -> None:
        state = {p: None for p in self.scope.param_names}
        self.returning_ifs: list[ast.If] = []
        end = self.block(self.scope.node.body, state)
        if end is not None and self.returning_ifs:
            # the function can fall off its end (return None) while a staged
            # `if` returns a value on one of its paths
            st = self.returning_ifs[0]
            self.report(st, "AG105", (
                f"the `if` at line {st.lineno}, whose condition may be a tensor, returns a value in only some of its "
                f"branches and the function can reach its end without a return: a staged conditional cannot "
                f"return a value on one path and None on the other; return a value on every path."))

    # -- helpers -----------------------------------------------------------
    def read(self, e: ast.AST | None, state: dict) -> None:
        if e is None:
            return
        walrus: list[str] = []
        for name in _reads(e, walrus):
            origin = state.get(name.id)
            if origin is not None and origin is not _ABSENT:
                state[name.id] = None
                if self._same_condition_holds(origin):
                    continue
                key = (name.id, id(origin[1]))
                if key in self.reported:
                    continue
                self.reported.add(key)
                self._report_undefined(name, origin)
        for n in walrus:
            if n in self.tracked:
                state[n] = None

    def _test_key(self, node: ast.If) -> str:
        key = self._dumps.get(id(node))
        if key is None:
            key = self._dumps[id(node)] = ast.dump(node.test)
        return key

    def _same_condition_holds(self, origin) -> bool:
        """A read guarded by the very test that defined the name (``if training:
        mask = ...`` ... ``if training: x *= mask``) is not reported."""
        if origin[0] != "AG101":
            return False
        node, polarity = origin[1], origin[2]
        key = self._test_key(node)
        for frame in self.frames:
            if frame[0] == "if" and frame[2] is not node and frame[3] == polarity and self._test_key(frame[2]) == key:
                return True
        return False

    def _report_undefined(self, name: ast.Name, origin) -> None:
        code, node = origin[0], origin[1]
        v = name.id
        if code == "AG101":
            msg = (f"'{v}' is assigned in only some branches of the `if` at line {node.lineno}, whose condition "
                   f"may be a tensor, and is used here; assign '{v}' before the `if` or in every branch.")
        else:
            kw = "for" if isinstance(node, (ast.For, ast.AsyncFor)) else "while"
            msg = (f"'{v}' is first assigned inside the `{kw}` loop at line {node.lineno}, which may run as a "
                   f"staged loop, and is used after it: the graph raises when the loop runs zero times; give "
                   f"'{v}' an initial value before the loop.")
        self.report(name, code, msg)

    def define_target(self, target: ast.AST, state: dict) -> None:
        if isinstance(target, ast.Name):
            if target.id in self.tracked:
                state[target.id] = None
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.define_target(elt, state)
        elif isinstance(target, ast.Starred):
            self.define_target(target.value, state)
        elif isinstance(target, ast.Attribute):
            self.read(target.value, state)
        elif isinstance(target, ast.Subscript):
            self.read(target.value, state)
            self.read(target.slice, state)

    def block(self, stmts: list[ast.stmt], state: dict | None) -> dict | None:
        for st in stmts:
            if state is None:
                return None
            state = self.stmt(st, state)
        return state

    # -- statements --------------------------------------------------------
    def stmt(self, st: ast.stmt, state: dict) -> dict | None:
        if isinstance(st, ast.Assign):
            self.read(st.value, state)
            for t in st.targets:
                self.define_target(t, state)
        elif isinstance(st, ast.AugAssign):
            if isinstance(st.target, ast.Name):
                self.read(ast.Name(st.target.id, ast.Load(), lineno=st.target.lineno,
                                   col_offset=st.target.col_offset), state)
            self.read(st.value, state)
            self.define_target(st.target, state)
        elif isinstance(st, ast.AnnAssign):
            self.read(st.value, state)
            if st.value is not None:
                self.define_target(st.target, state)
        elif isinstance(st, (ast.Expr, ast.Assert)):
            for c in child_nodes(st):
                self.read(c, state)
        elif isinstance(st, ast.Return):
            self.read(st.value, state)
            self._check_exit(st, "return")
            return None
        elif isinstance(st, ast.Raise):
            self.read(st.exc, state)
            self.read(st.cause, state)
            return None
        elif isinstance(st, ast.Break):
            self._check_exit(st, "break")
            if self.loops:
                self.loops[-1].breaks.append(state)
            return None
        elif isinstance(st, ast.Continue):
            if self.loops:
                self.loops[-1].continues.append(state)
            return None
        elif isinstance(st, ast.Delete):
            for t in st.targets:
                if isinstance(t, ast.Name):
                    state.pop(t.id, None)
                else:
                    self.read(t, state)
        elif isinstance(st, ast.If):
            return self._if(st, state)
        elif isinstance(st, (ast.For, ast.AsyncFor, ast.While)):
            return self._loop(st, state)
        elif isinstance(st, (ast.With, ast.AsyncWith)):
            for item in st.items:
                self.read(item.context_expr, state)
                if item.optional_vars is not None:
                    self.define_target(item.optional_vars, state)
            return self.block(st.body, state)
        elif isinstance(st, ast.Try) or type(st).__name__ == "TryStar":
            return self._try(st, state)
        elif isinstance(st, ast.Match):
            self.read(st.subject, state)
            outs = [dict(state)]
            for case in st.cases:
                s = dict(state)
                for n in _pattern_names(case.pattern):
                    if n in self.tracked:
                        s[n] = None
                self.read(case.guard, s)
                outs.append(self.block(case.body, s))
            return _join(outs, None)
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            subs = list(st.decorator_list)
            if isinstance(st, ast.ClassDef):
                subs += st.bases + [k.value for k in st.keywords]
            else:
                subs += st.args.defaults + [d for d in st.args.kw_defaults if d is not None]
            for s in subs:
                self.read(s, state)
            if st.name in self.tracked:
                state[st.name] = None
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            for a in st.names:
                n = a.asname or a.name.split(".")[0]
                if n in self.tracked:
                    state[n] = None
        return state

    def _if(self, st: ast.If, state: dict) -> dict | None:
        self.read(st.test, state)
        c = self.cls(st.test)
        # (AG103: also a condition that is a tensor whenever a parameter is)
        src = None if c == TENSOR else self.scope.tensor_source(st.test)
        tensor = c == TENSOR or src is not None
        self.frames.append(("if", tensor, st, True, src))
        s1 = self.block(st.body, dict(state))
        self.frames[-1] = ("if", tensor, st, False, src)
        s2 = self.block(st.orelse, dict(state))
        self.frames.pop()
        if c != PY and (s1 is None) != (s2 is None) and not any(f[0] == "loop" for f in self.frames) \
                and _returns_value(st.body if s1 is None else st.orelse):
            self.returning_ifs.append(st)
        if c == PY:
            return _join([s1, s2], None)
        origin = ("AG101", st)
        out = _join([s1, s2], origin)
        if out is not None and s1 is not None and s2 is not None:
            for k, v in out.items():
                if v is origin:  # defined in one branch only: remember which
                    out[k] = ("AG101", st, k in s1 and s1[k] is None)
        return out

    def _loop(self, st, state: dict) -> dict | None:
        if isinstance(st, ast.While):
            self.read(st.test, state)
            c = self.cls(st.test)
            body_state = dict(state)
        else:
            self.read(st.iter, state)
            c = self.cls(st.iter)
            body_state = dict(state)
            self.define_target(st.target, body_state)
        origin = ("AG102", st) if c != PY else None
        loop = _Loop()
        self.loops.append(loop)
        # For AG103 a loop over `range(n)` counts as a Python loop unless `n` is
        # certainly a tensor: a Python-int bound is what such code usually has.
        python_loop = c == PY or (
            not isinstance(st, ast.While) and c != TENSOR and isinstance(st.iter, ast.Call)
            and isinstance(st.iter.func, ast.Name) and st.iter.func.id == "range"
            and not self.scope.shadowed("range"))
        self.frames.append(("loop", python_loop, st))
        end = self.block(st.body, body_state)
        self.frames.pop()
        self.loops.pop()
        after = _join([state, end, *loop.continues], origin)
        after_else = self.block(st.orelse, after) if after is not None else None
        return _join([after_else, *loop.breaks], origin)

    def _try(self, st, state: dict) -> dict | None:
        s_body = self.block(st.body, dict(state))
        s_else = self.block(st.orelse, s_body) if s_body is not None else None
        outs = [s_else]
        for h in st.handlers:
            s = dict(state)
            self.read(h.type, s)
            if h.name and h.name in self.tracked:
                s[h.name] = None
            outs.append(self.block(h.body, s))
        result = _join(outs, None)
        if not st.finalbody:
            return result
        if result is None:
            self.block(st.finalbody, dict(state))
            return None
        return self.block(st.finalbody, result)

    def _check_exit(self, st: ast.stmt, kind: str) -> None:
        tensor_if = source = None
        for frame_kind, flag, node, *rest in reversed(self.frames):
            if frame_kind == "if":
                if flag and tensor_if is None:
                    tensor_if, source = node, rest[1]
                continue
            # a loop
            if flag and tensor_if is not None:
                kw = "for" if isinstance(node, (ast.For, ast.AsyncFor)) else "while"
                what = "a Python loop" if self.cls(node.test if kw == "while" else node.iter) == PY else \
                    "a Python loop unless its range is a tensor"
                cond = (f"the tensor condition at line {tensor_if.lineno}" if source is None else
                        f"the condition at line {tensor_if.lineno}, a tensor whenever the parameter '{source}' is one")
                self.report(st, "AG103", (
                    f"`{kind}` depends on {cond}, but the `{kw}` loop at "
                    f"line {node.lineno} is {what}: tracing raises here (NotImplementedError, as in "
                    f"TensorFlow); iterate over `tf.range(...)` or make the loop condition a tensor."))
                return
            if kind == "break":
                return

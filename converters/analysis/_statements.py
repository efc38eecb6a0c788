"""The converters' facts about one function, computed once, per libcst statement.

For every statement of a function's own scope: the names it reads (anywhere
below it, nested scopes included: a conservative over-approximation), the
names it binds in the function's scope, and, for simple statements, the names
it certainly binds (kills, for liveness). Plus function-level facts: global
and nonlocal declarations, which loops break or continue, whether returns sit
inside control flow. What makes a function unconvertible, and whether it is a
generator, come from ``_unconvertible`` (on ``ast``, shared with ``check``).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable

import libcst as cst

from .._visiting import _FIELDS, _IS_NODE, NodeVisitor, _is_node, child_fields
from ._module import module_names
from ._scope import own_scope
from ._unconvertible import Construct, constructs, spans_a_line, word_lines

_STATEMENTS = (cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.SimpleStatementLine, cst.SimpleStatementSuite)
_NAME = cst.Name
_is_statement_type: dict = {}  # isinstance against libcst's ABCs is slow: cache per type


def _is_statement(node) -> bool:
    t = type(node)
    r = _is_statement_type.get(t)
    if r is None:
        r = _is_statement_type[t] = issubclass(t, _STATEMENTS)
    return r


@dataclass
class Facts:
    reads: set
    writes: set
    kills: set
    yields: bool = False  # a yield below (generators keep such statements as they are)
    returns: bool = False
    jumps: set = field(default_factory=set)  # loops its break/continue leave
    # whether the expression rewrite (expressions.py) may change something
    # below: a call, and/or/not, a conditional expression, a comparison
    # chain (True for the statements the passes make, unless they say)
    rewrite: bool = True


@dataclass
class FunctionInfo:
    facts: dict = field(default_factory=dict)  # node -> Facts
    globals: set = field(default_factory=set)
    nonlocals: set = field(default_factory=set)
    loop_jumps: dict = field(default_factory=dict)  # loop node -> {"break", "continue"}
    nested_return: bool = False
    has_control_flow: bool = False
    has_calls: bool = False
    uses_super: bool = False
    unsupported: str | None = None  # why the converter leaves the function as it is
    generator: bool = False
    body_reads: set = field(default_factory=set)
    body_writes: set = field(default_factory=set)
    # nested function name -> the names it reads from outside itself: a call
    # (or any read of its name) reads them then, wherever it happens
    closure_reads: dict = field(default_factory=dict)
    # nested function name -> the names it (or a function nested in it)
    # declares nonlocal and assigns: a call may write them, wherever it happens
    closure_writes: dict = field(default_factory=dict)

    def reads(self, node) -> set:
        f = self.facts.get(node)
        return f.reads if f is not None else set()

    def writes(self, node) -> set:
        f = self.facts.get(node)
        return f.writes if f is not None else set()


class _Analyzer(NodeVisitor):
    def __init__(self, info: FunctionInfo):
        self.info = info
        self.frames: list[Facts] = []
        self.scope_depth = 0  # > 0 inside nested functions, lambdas, classes
        self.comp_depth = 0  # comprehension scopes (walrus binds outside them)
        self.loops: list = []
        self.control_depth = 0

    # -- frames -----------------------------------------------------------
    def _push(self):
        self.frames.append(Facts(set(), set(), set(), rewrite=False))

    def _pop(self, node):
        f = self.frames.pop()
        if f.jumps:
            f.jumps.discard(node)  # a loop's own break/continue stay inside it
        self.info.facts[node] = f
        if self.frames:
            parent = self.frames[-1]
            parent.reads |= f.reads
            parent.writes |= f.writes
            parent.yields |= f.yields
            parent.returns |= f.returns
            if f.rewrite:
                parent.rewrite = True
            if f.jumps:
                parent.jumps |= f.jumps

    def _read(self, n: str):
        if self.frames:
            self.frames[-1].reads.add(n)

    def _write(self, n: str, kill: bool = False):
        if self.scope_depth == 0 and self.frames:
            self.frames[-1].writes.add(n)
            if kill:
                self.frames[-1].kills.add(n)

    def _bind(self, target, kill: bool = True):
        """Record the names a target expression binds; visit what it reads."""
        if type(target) is cst.Name:
            self._write(target.value, kill)
        elif type(target) in (cst.Tuple, cst.List):
            for el in target.elements:
                self._bind(el.value, kill)
        elif type(target) is cst.StarredElement:
            self._bind(target.value, kill)
        elif target is not None:
            self.walk(target)

    # -- statements -------------------------------------------------------
    def walk(self, node) -> None:
        """``NodeVisitor.walk`` with a frame per statement of the function's
        own scope (pushed before its children, popped after), in one
        function: the walk visits every node of every function."""
        t = type(node)
        if t is _NAME:  # (visit_Name, inline: the most frequent node)
            if self.frames:
                self.frames[-1].reads.add(node.value)
            return
        is_statement = _is_statement_type.get(t)
        if is_statement is None:
            is_statement = _is_statement(node)
        statement = is_statement and self.scope_depth == 0
        if statement:
            self._push()
        fn = self._visits.get(t.__name__)
        if fn is None or fn(self, node) is not False:
            fs = _FIELDS.get(t)
            if fs is None:
                fs = child_fields(t)
            for name in fs:
                v = getattr(node, name)
                t = type(v)
                if t is tuple or t is list:
                    for x in v:
                        is_node = _IS_NODE.get(type(x))
                        if is_node or (is_node is None and _is_node(type(x))):
                            self.walk(x)
                else:
                    is_node = _IS_NODE.get(t)
                    if is_node or (is_node is None and _is_node(t)):
                        self.walk(v)
        if statement:
            self._pop(node)

    def _header(self, expr):
        """Walk a compound statement's test or iterable, recording its own
        facts too: the converters ask what an if/while test or a for
        iterable reads (names live before the statement)."""
        if self.scope_depth == 0 and self.frames:
            self._push()
            self.walk(expr)
            self._pop(expr)
        else:
            self.walk(expr)

    def visit_If(self, node):
        self.info.has_control_flow = True
        self._header(node.test)
        self.control_depth += 1
        self.walk(node.body)
        if node.orelse is not None:
            self.walk(node.orelse)
        self.control_depth -= 1
        return False

    def visit_While(self, node):
        self.info.has_control_flow = True
        self._header(node.test)
        self._loop_body(node)
        return False

    def visit_For(self, node):
        self.info.has_control_flow = True
        self._header(node.iter)
        self._bind(node.target)
        self._loop_body(node)
        return False

    def _loop_body(self, node):
        self.info.loop_jumps[node] = set()
        self.loops.append(node)
        self.control_depth += 1
        self.walk(node.body)
        self.loops.pop()
        if node.orelse is not None:
            self.walk(node.orelse)
        self.control_depth -= 1

    def visit_Break(self, node):
        self._jump("break")

    def visit_Continue(self, node):
        self._jump("continue")

    def _jump(self, kind):
        if self.scope_depth:
            return
        if self.loops:
            self.info.loop_jumps[self.loops[-1]].add(kind)
            self.frames[-1].jumps.add(self.loops[-1])

    def visit_Return(self, node):
        if self.scope_depth:
            return True
        self.frames[-1].returns = True
        if self.control_depth:
            self.info.nested_return = True
        return True

    def visit_Global(self, node):
        if self.scope_depth == 0:
            self.info.globals.update(n.name.value for n in node.names)
        return False

    def visit_Nonlocal(self, node):
        if self.scope_depth == 0:
            self.info.nonlocals.update(n.name.value for n in node.names)
        return False

    def visit_Assign(self, node):
        for t in node.targets:
            self._bind(t.target)
        self.walk(node.value)
        return False

    def visit_AugAssign(self, node):
        if type(node.target) is cst.Name:
            self._read(node.target.value)
        self._bind(node.target)
        self.walk(node.value)
        return False

    def visit_AnnAssign(self, node):
        self.walk(node.annotation)
        if node.value is not None:
            self._bind(node.target)
            self.walk(node.value)
        else:
            self._bind(node.target, kill=False)
        return False

    def visit_Del(self, node):
        self._bind(node.target, kill=False)
        return False

    def visit_Import(self, node):
        for alias in node.names:
            if alias.asname is not None:
                self._write(alias.asname.name.value, True)
            else:
                top = alias.name
                while type(top) is cst.Attribute:
                    top = top.value
                self._write(top.value, True)
        return False

    def visit_ImportFrom(self, node):
        if type(node.names) is cst.ImportStar:
            return False  # (the function is left as it is)
        for alias in node.names:
            target = alias.asname.name if alias.asname is not None else alias.name
            self._write(target.value, True)
        return False

    def visit_WithItem(self, node):
        self.walk(node.item)
        if node.asname is not None:
            self._bind(node.asname.name)
        return False

    def visit_ExceptHandler(self, node):
        if node.type is not None:
            self.walk(node.type)
        if node.name is not None:
            self._bind(node.name.name, kill=False)
        self.walk(node.body)
        return False

    def visit_ExceptStarHandler(self, node):
        return self.visit_ExceptHandler(node)

    def visit_NamedExpr(self, node):
        if self.scope_depth == 0 or self.scope_depth == self.comp_depth:
            saved = self.scope_depth
            self.scope_depth = 0
            self._bind(node.target, kill=False)
            self.scope_depth = saved
        self.walk(node.value)
        return False

    # -- nested scopes ----------------------------------------------------
    def visit_FunctionDef(self, node):
        for d in node.decorators:
            self.walk(d)
        self.walk(node.params)
        if node.returns is not None:
            self.walk(node.returns)
        self._write(node.name.value, True)
        if self.scope_depth == 0:
            reads, writes = _outside_names(node)
            self.info.closure_reads[node.name.value] = reads
            if writes:
                self.info.closure_writes[node.name.value] = writes
        self.scope_depth += 1
        self.walk(node.body)
        self.scope_depth -= 1
        return False

    def visit_Param(self, node):
        if node.default is not None:
            self.walk(node.default)
        if node.annotation is not None:
            self.walk(node.annotation)
        return False

    def visit_Lambda(self, node):
        self.walk(node.params)
        self.scope_depth += 1
        self.walk(node.body)
        self.scope_depth -= 1
        return False

    def visit_ClassDef(self, node):
        for d in node.decorators:
            self.walk(d)
        for a in node.bases:
            self.walk(a)
        for a in node.keywords:
            self.walk(a)
        self._write(node.name.value, True)
        self.scope_depth += 1
        self.walk(node.body)
        self.scope_depth -= 1
        return False

    def _comprehension(self, node):
        self.scope_depth += 1
        self.comp_depth += 1
        for name in child_fields(type(node)):
            child = getattr(node, name)
            if isinstance(child, cst.CSTNode):
                self.walk(child)
        self.comp_depth -= 1
        self.scope_depth -= 1
        return False

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_CompFor(self, node):
        self.walk(node.iter)
        self._bind(node.target)
        for c in node.ifs:
            self.walk(c)
        if node.inner_for_in is not None:
            self.walk(node.inner_for_in)
        return False

    # -- expressions ------------------------------------------------------
    def _rewritten(self):
        if self.frames:
            self.frames[-1].rewrite = True

    def visit_IfExp(self, node):
        self.info.has_control_flow = True
        self._rewritten()

    def visit_BooleanOperation(self, node):
        self.info.has_control_flow = True
        self._rewritten()

    def visit_Comparison(self, node):
        if len(node.comparisons) > 1:
            self.info.has_control_flow = True  # a chain is an `and`
            self._rewritten()

    def visit_UnaryOperation(self, node):
        if type(node.operator) is cst.Not:
            self.info.has_control_flow = True
            self._rewritten()

    def visit_Name(self, node):
        self._read(node.value)
        return False

    def visit_Attribute(self, node):
        self.walk(node.value)
        return False

    def visit_Arg(self, node):
        self.walk(node.value)
        return False

    def visit_Call(self, node):
        self._rewritten()
        if self.scope_depth == 0:
            self.info.has_calls = True
            func = node.func
            if type(func) is cst.Name and func.value == "super" and not node.args:
                self.info.uses_super = True
        return True

    def visit_Yield(self, node):
        if self.scope_depth == 0:
            self.frames[-1].yields = True
        return True

    def visit_MatchAs(self, node):
        if node.name is not None:
            self._write(node.name.value, True)
        if node.pattern is not None:
            self.walk(node.pattern)
        return False

    def visit_MatchStar(self, node):
        if node.name is not None:
            self._write(node.name.value, True)
        return False

    def visit_MatchMapping(self, node):
        for el in node.elements:
            self.walk(el)
        if node.rest is not None:
            self._write(node.rest.value, True)
        return False

    def visit_MatchKeywordElement(self, node):
        self.walk(node.pattern)
        return False



class ConverterView:
    """The constructs of the converter's libcst functions, from the module's
    ``ast`` tree (``defs``: libcst ``FunctionDef`` -> its ``ast`` node, or
    None when the pipeline could not pair the trees)."""

    def __init__(self, source: str, tree: ast.Module | None, defs: dict | None):
        self.tree = tree
        self.defs = defs
        self._module_names: set[str] | None = None
        self._word_lines: list[int] | None = None
        if source.isascii():  # (identifiers are NFKC-normalized: no text test otherwise)
            if "\r" in source:
                source = source.replace("\r\n", "\n").replace("\r", "\n")
            self._word_lines = word_lines(source)

    def constructs(self, fn) -> list[Construct]:
        """The constructs of a libcst ``FunctionDef``."""
        node = self.defs.get(fn) if self.defs is not None else None
        if node is None:
            node = parse_function(fn)
            return constructs(node, self._shadowed_in(node))
        lines = self._word_lines
        if lines is not None and not spans_a_line(lines, node.lineno, node.end_lineno or node.lineno):
            return []  # (decorators run outside the function: not its constructs)
        return constructs(node, self._shadowed_in(node), lines)

    def _shadowed_in(self, node) -> Callable[[str], bool]:
        scope = None

        def shadowed(name: str) -> bool:
            nonlocal scope
            if self._module_names is None:
                self._module_names = module_names(self.tree) if self.tree is not None else set()
            if name in self._module_names:
                return True
            if scope is None:
                scope = own_scope(node)
            return name in scope.locals
        return shadowed


def parse_function(fn) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """The ``ast`` node of a libcst ``FunctionDef``, from its printed text."""
    text = cst.Module(body=[]).code_for_node(fn.with_changes(leading_lines=[]))
    return ast.parse(text).body[0]  # type: ignore[return-value]


def _outside_names(fn: cst.FunctionDef) -> tuple:
    """(reads, writes): the names a nested function (or anything nested in
    it) reads that are not its own locals (the enclosing function's variables
    it closes over, plus globals and builtins), and the enclosing function's
    variables it assigns through ``nonlocal``."""
    import symtable

    text = cst.Module(body=[]).code_for_node(fn.with_changes(leading_lines=[], decorators=[]))
    declared = _nonlocal_names(fn)
    if declared:  # (``nonlocal x`` needs an enclosing binding of x to compile)
        text = (f"def _enclosing():\n    {' = '.join(sorted(declared))} = None\n"
                + "".join("    " + ln for ln in text.splitlines(True)))
    try:
        table = symtable.symtable(text, "<nested>", "exec").get_children()[0]
        if declared:
            table = table.get_children()[0]
    except (SyntaxError, IndexError):
        return set(), set()
    out, assigned, stack = set(), set(), [table]
    while stack:
        t = stack.pop()
        for s in t.get_symbols():
            if s.is_global() or s.is_free():
                out.add(s.get_name())
            if s.is_nonlocal() and s.is_assigned():
                assigned.add(s.get_name())
        stack.extend(t.get_children())
    free = {s.get_name() for s in table.get_symbols() if s.is_free()}
    return out, assigned & free


class _Nonlocals(NodeVisitor):
    def __init__(self):
        self.found: set = set()

    def visit_Nonlocal(self, node):
        self.found.update(n.name.value for n in node.names)


def _nonlocal_names(fn: cst.FunctionDef) -> set:
    finder = _Nonlocals()
    finder.walk(fn.body)
    return finder.found


def _add_closure_reads(info: FunctionInfo, top: Facts) -> None:
    """A statement that reads a nested function's name (calls it, passes it
    on) reads what the function closes over: those names are live there (a
    staged conditional or loop before it must carry their values)."""
    closures = info.closure_reads
    changed = True
    while changed:  # nested functions calling each other
        changed = False
        for name, reads in closures.items():
            more = set().union(*(closures[c] for c in reads & closures.keys() if c != name)) - reads
            if more:
                reads |= more
                changed = True
    for f in (*info.facts.values(), top):
        for c in f.reads & closures.keys():
            f.reads |= closures[c]


def _all_params(params: cst.Parameters) -> list:
    out = [*params.posonly_params, *params.params, *params.kwonly_params]
    for p in (params.star_arg, params.star_kwarg):
        if isinstance(p, cst.Param):
            out.append(p)
    return out


def _add_closure_writes(info: FunctionInfo, top: Facts, own: set) -> None:
    """A statement that reads a nested function's name (calls it, passes it
    on) may write the function's own variables the nested one assigns
    through ``nonlocal``: a staged conditional or loop around it carries them."""
    closures, writes = info.closure_reads, info.closure_writes
    names = {name: set(w) for name, w in writes.items()}
    changed = True
    while changed:  # nested functions calling each other
        changed = False
        for name, reads in closures.items():
            more = set().union(*(names.get(c, ()) for c in reads & closures.keys() if c != name))
            more -= names.get(name, set())
            if more:
                names.setdefault(name, set()).update(more)
                changed = True
    names = {name: w & own for name, w in names.items() if w & own}
    for f in (*info.facts.values(), top):
        for c in f.reads & names.keys():
            f.writes |= names[c]


_ALONE = ConverterView("", None, None)  # a function without its module (no module-level names)


def analyze_function(fn: cst.FunctionDef, view: ConverterView | None = None) -> FunctionInfo:
    """The facts of ``fn``; ``view``: its module's ``ast`` side (the
    pipeline's), which says what makes it unconvertible or a generator."""
    info = FunctionInfo()
    for c in (view or _ALONE).constructs(fn):
        if c.kind == "yield":
            info.generator = True
        elif info.unsupported is None:
            info.unsupported = c.reason
    if info.unsupported is not None:
        return info
    analyzer = _Analyzer(info)
    analyzer._push()
    analyzer.walk(fn.body)
    top = analyzer.frames.pop()
    if info.closure_reads:
        _add_closure_reads(info, top)
    if info.closure_writes:
        own = top.writes | {p.name.value for p in _all_params(fn.params)}
        _add_closure_writes(info, top, own)
    info.body_reads = top.reads
    info.body_writes = top.writes
    return info

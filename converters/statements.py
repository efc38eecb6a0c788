"""Statement-level rewrites: every simple statement of a function through
``rewrite`` (the driver's choice: ``asserts.transform``, then
``lists.transform``), before the control-flow converter.

Runs after jump lowering, over its output. Walks the statements the way the
control-flow converter will (not into nested functions and classes), so
that it knows which statements will run inside a helper function: there an
annotated assignment becomes a plain one (an annotated name cannot be
declared nonlocal), and that plain form is what ``rewrite`` is given.

Entry: ``transform(stmts, StatementInputs) -> StatementResult``. A rewritten
statement line, and every compound statement rebuilt around one, is entered
in the node table with the facts and line of the statement it replaces; the
result maps each rebuilt compound statement's original to it (the passes
before keyed some of them: loop flags, guards) and says which names each
rewritten line now binds beyond its facts (``xs.append(v)`` ->
``xs = ag__.list_append(xs, v)`` binds ``xs``; a rewrite may say so itself,
returning ``(statement, names)``: ``o.acc.append(v)`` binds ``o.acc``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import libcst as cst

from . import _nodes as n
from .tables import NodeTable


@dataclass(frozen=True)
class StatementInputs:
    table: NodeTable  # facts and lines; the statements rebuilt here are entered in it
    rewrite: Callable  # small statement -> its replacement (or (replacement, composite names it binds)), or None
    keep: frozenset = frozenset()  # statements to leave as they are (flag inits, dead flag sets)


@dataclass(frozen=True)
class StatementResult:
    stmts: list
    rebuilt: dict  # compound statement given -> the one rebuilt around a rewritten line
    rebinds: dict  # rewritten statement line -> the names its rewrite binds


def transform(stmts, inputs: StatementInputs) -> StatementResult:
    walk = _Rewrite(inputs)
    return StatementResult(walk.block(stmts, False), walk.rebuilt, walk.rebinds)


def _bound_names(assign: cst.Assign) -> set:
    target = assign.targets[0].target
    parts = [e.value for e in target.elements] if type(target) is cst.Tuple else [target]
    return {p.value for p in parts if type(p) is cst.Name}


class _Rewrite:
    def __init__(self, inputs: StatementInputs):
        self.table = inputs.table
        self.rewrite = inputs.rewrite
        self.keep = inputs.keep
        self.rebuilt: dict = {}
        self.rebinds: dict = {}

    def block(self, stmts, in_helper: bool) -> list:
        out = None
        for i, stmt in enumerate(stmts):
            new = self.statement(stmt, in_helper)
            if new is not stmt:
                if out is None:
                    out = list(stmts)
                out[i] = new
        return stmts if out is None else out

    def _sub(self, block, in_helper):
        """A block with its statements rewritten (the block itself when none is)."""
        if block is None:
            return None
        stmts = self.table.stmts(block)
        new = self.block(stmts, in_helper)
        if new is stmts:
            return block
        if type(block) is cst.SimpleStatementSuite:
            return n.make(cst.IndentedBlock, body=new)
        return n.replace(block, body=new)

    def statement(self, stmt, in_helper: bool):
        if type(stmt) is cst.SimpleStatementLine:
            return self._simple(stmt, in_helper)
        if type(stmt) in (cst.FunctionDef, cst.ClassDef):
            return stmt  # converted as functions of their own
        kept = self.table.kept(stmt)  # a generator's statement: stays a statement
        if type(stmt) is cst.If:
            inner = in_helper if kept else True
            body = self._sub(stmt.body, inner)
            orelse = stmt.orelse
            if type(orelse) is cst.If:
                new_orelse = self.statement(orelse, inner)
            elif orelse is not None:
                ob = self._sub(orelse.body, inner)
                new_orelse = orelse if ob is orelse.body else n.replace(orelse, body=ob)
            else:
                new_orelse = None
            changes = {}
            if body is not stmt.body:
                changes["body"] = body
            if new_orelse is not orelse:
                changes["orelse"] = new_orelse
        elif type(stmt) in (cst.While, cst.For):
            inner = in_helper if kept else True
            changes = {}
            body = self._sub(stmt.body, inner)
            if body is not stmt.body:
                changes["body"] = body
            if stmt.orelse is not None:  # (kept loops only: jump lowering moved the others')
                ob = self._sub(stmt.orelse.body, in_helper)
                if ob is not stmt.orelse.body:
                    changes["orelse"] = n.replace(stmt.orelse, body=ob)
        elif type(stmt) is cst.With:
            body = self._sub(stmt.body, in_helper)
            changes = {"body": body} if body is not stmt.body else {}
        elif type(stmt) is cst.Try or type(stmt).__name__ == "TryStar":
            changes = {}
            body = self._sub(stmt.body, in_helper)
            if body is not stmt.body:
                changes["body"] = body
            handlers = []
            for h in stmt.handlers:
                hb = self._sub(h.body, in_helper)
                handlers.append(h if hb is h.body else n.replace(h, body=hb))
            if any(a is not b for a, b in zip(handlers, stmt.handlers)):
                changes["handlers"] = handlers
            for name in ("orelse", "finalbody"):
                part = getattr(stmt, name)
                if part is not None:
                    pb = self._sub(part.body, in_helper)
                    if pb is not part.body:
                        changes[name] = n.replace(part, body=pb)
        elif type(stmt).__name__ == "Match":
            cases = []
            for case in stmt.cases:
                cb = self._sub(case.body, in_helper)
                cases.append(case if cb is case.body else n.replace(case, body=cb))
            changes = {"cases": cases} if any(a is not b for a, b in zip(cases, stmt.cases)) else {}
        else:
            return stmt
        if not changes:
            return stmt
        new = self.table.add(n.replace(stmt, **changes), stmt, self.table.facts(stmt))
        self.rebuilt[stmt] = new
        return new

    def _simple(self, stmt, in_helper):
        if stmt in self.keep:
            return stmt
        smalls = None
        binds: set = set()
        for i, small in enumerate(stmt.body):
            candidate = small
            if in_helper and type(small) is cst.AnnAssign and small.value is not None:
                candidate = cst.Assign(targets=[cst.AssignTarget(small.target)], value=small.value)
            replaced = self.rewrite(candidate)
            if replaced is None:
                continue
            if type(replaced) is tuple:  # (statement, the composite names it binds)
                replaced, composites = replaced
                binds |= composites
            if type(replaced) is cst.Assign:
                binds |= _bound_names(replaced)
            self.table.add_facts(replaced, self.table.facts(small))
            if smalls is None:
                smalls = list(stmt.body)
            smalls[i] = replaced
        if smalls is None:
            return stmt
        new = self.table.add(n.replace(stmt, body=smalls), stmt, self.table.facts(stmt))
        if binds:
            self.rebinds[new] = frozenset(binds)
        return new

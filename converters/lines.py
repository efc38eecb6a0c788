"""Original line numbers of libcst statements, and the line map of the output.

libcst's PositionProvider costs more than parsing the file again, so lines
come from the standard ``ast`` parser instead (a C parser, ~20x faster): both
parse the same text, so their statements correspond one to one in pre-order.

The map of the output is carried in the printed code itself: converters put
an anchor comment line (``#\\x1fN``: "the next line is original line N") before
statements whose lines moved; ``strip_anchors`` removes those lines and reads
the map off in one scan.
"""
from __future__ import annotations

import ast

import libcst as cst

from ._nodes import MARK

_AST_COMPOUND = {
    "If": cst.If,
    "For": cst.For,
    "AsyncFor": cst.For,
    "While": cst.While,
    "Try": cst.Try,
    "TryStar": getattr(cst, "TryStar", cst.Try),
    "With": cst.With,
    "AsyncWith": cst.With,
    "FunctionDef": cst.FunctionDef,
    "AsyncFunctionDef": cst.FunctionDef,
    "ClassDef": cst.ClassDef,
    "Match": getattr(cst, "Match", None),
}


class LineTableMismatch(Exception):
    pass


def _ast_preorder(body, out):
    for stmt in body:
        out.append(stmt)
        kind = type(stmt).__name__
        if kind in ("If", "For", "AsyncFor", "While"):
            _ast_preorder(stmt.body, out)
            _ast_preorder(stmt.orelse, out)
        elif kind in ("Try", "TryStar"):
            _ast_preorder(stmt.body, out)
            for h in stmt.handlers:
                _ast_preorder(h.body, out)
            _ast_preorder(stmt.orelse, out)
            _ast_preorder(stmt.finalbody, out)
        elif kind in ("With", "AsyncWith", "FunctionDef", "AsyncFunctionDef", "ClassDef"):
            _ast_preorder(stmt.body, out)
        elif kind == "Match":
            for case in stmt.cases:
                _ast_preorder(case.body, out)


def _cst_preorder(stmts, out):
    for stmt in stmts:
        if type(stmt) in (cst.SimpleStatementLine, cst.SimpleStatementSuite):
            out.append(stmt)  # the line itself: gets the line of its first small statement
            for small in stmt.body:
                out.append(small)
            continue
        out.append(stmt)
        if type(stmt) is cst.If:
            _cst_if(stmt, out)
        elif type(stmt) in (cst.For, cst.While):
            _cst_body(stmt.body, out)
            if stmt.orelse is not None:
                _cst_body(stmt.orelse.body, out)
        elif type(stmt) is cst.Try or type(stmt).__name__ == "TryStar":
            _cst_body(stmt.body, out)
            for h in stmt.handlers:
                _cst_body(h.body, out)
            if stmt.orelse is not None:
                _cst_body(stmt.orelse.body, out)
            if stmt.finalbody is not None:
                _cst_body(stmt.finalbody.body, out)
        elif type(stmt) in (cst.With, cst.FunctionDef, cst.ClassDef):
            _cst_body(stmt.body, out)
        elif type(stmt).__name__ == "Match":
            for case in stmt.cases:
                _cst_body(case.body, out)


def _cst_if(stmt: cst.If, out):
    _cst_body(stmt.body, out)
    orelse = stmt.orelse
    if type(orelse) is cst.If:
        out.append(orelse)
        _cst_if(orelse, out)
    elif orelse is not None:
        _cst_body(orelse.body, out)


def _cst_body(block, out):
    if type(block) is cst.SimpleStatementSuite:
        out.append(block)
        out.extend(block.body)
    else:
        _cst_preorder(block.body, out)


def statement_lines(module: cst.Module, tree: ast.Module, spans: dict | None = None,
                    defs: dict | None = None, last_lines: dict | None = None) -> dict:
    """Map every libcst statement node (compound, line, small) to its line.

    FunctionDef and ClassDef map to their first decorator's line when
    decorated; the key ``(node, "def")`` gives the keyword line. ``spans``,
    when given, receives each FunctionDef's (column of ``def`` + 1, last line);
    ``defs``, each FunctionDef's ``ast`` node (incomplete if this raises);
    ``last_lines``, the last line of every compound and small statement
    (its last token's: the comments after it are not counted).
    """
    ast_stmts: list = []
    _ast_preorder(tree.body, ast_stmts)
    cst_nodes: list = []
    _cst_preorder(module.body, cst_nodes)
    lines: dict = {}
    i = 0
    for node in cst_nodes:
        if type(node) in (cst.SimpleStatementLine, cst.SimpleStatementSuite):
            if i >= len(ast_stmts):
                raise LineTableMismatch("ran out of statements")
            lines[node] = ast_stmts[i].lineno
            continue
        if i >= len(ast_stmts):
            raise LineTableMismatch("ran out of statements")
        a = ast_stmts[i]
        i += 1
        if last_lines is not None:
            last_lines[node] = a.end_lineno
        expected = _AST_COMPOUND.get(type(a).__name__)
        if expected is not None:
            if not isinstance(node, expected):
                raise LineTableMismatch(f"{type(a).__name__} vs {type(node).__name__}")
        elif isinstance(node, cst.BaseCompoundStatement):
            raise LineTableMismatch(f"{type(a).__name__} vs {type(node).__name__}")
        decorators = getattr(a, "decorator_list", None)
        lines[node] = min([a.lineno] + [d.lineno for d in decorators]) if decorators else a.lineno
        if decorators:
            lines[(node, "def")] = a.lineno
        if spans is not None and type(node) is cst.FunctionDef:
            spans[node] = (a.col_offset + 1, a.end_lineno or a.lineno)
        if defs is not None and type(node) is cst.FunctionDef:
            defs[node] = a
    if i != len(ast_stmts):
        raise LineTableMismatch("statement counts differ")
    return lines


def strip_anchors(code: str) -> tuple[str, list[int]]:
    """Remove anchor lines; return the code and the generated->original map."""
    if MARK not in code:
        lines = code.split("\n")
        return code, list(range(1, len(lines) + 1))
    out: list[str] = []
    line_map: list[int] = []
    current = 1
    for text in code.split("\n"):
        if MARK in text:
            stripped = text.strip()
            if stripped.startswith("#" + MARK):
                current = int(stripped[2:])
                continue
        out.append(text)
        line_map.append(current)
        current += 1
    return "\n".join(out), line_map

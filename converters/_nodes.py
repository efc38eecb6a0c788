"""Small builders for the libcst nodes the converters emit.

Nodes are built directly (never by parsing template strings: a parse per
generated statement would cost more than the whole conversion).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import libcst as cst

AG = "ag__"
MARK = "\x1f"  # line anchors: a comment line "#\x1f<line>" that the pipeline strips


def name(value: str) -> cst.Name:
    return cst.Name(value)


def ag(attr: str) -> cst.Attribute:
    return cst.Attribute(value=cst.Name(AG), attr=cst.Name(attr))


def call(func: cst.BaseExpression, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(func=func, args=[cst.Arg(a) for a in args])


def ag_call(attr: str, *args: cst.BaseExpression) -> cst.Call:
    return call(ag(attr), *args)


def lam(body: cst.BaseExpression) -> cst.Lambda:
    return cst.Lambda(params=cst.Parameters(), body=body)


def string_tuple(names: Iterable[str]) -> cst.Tuple:
    return cst.Tuple([cst.Element(cst.SimpleString(repr(n))) for n in names])


def line(*small: cst.BaseSmallStatement) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine(body=list(small))


def expr_stmt(value: cst.BaseExpression) -> cst.SimpleStatementLine:
    return line(cst.Expr(value))


def assign(target: str | cst.BaseAssignTargetExpression, value: cst.BaseExpression) -> cst.SimpleStatementLine:
    if isinstance(target, str):
        target = cst.Name(target)
    return line(cst.Assign(targets=[cst.AssignTarget(target)], value=value))


def true() -> cst.Name:
    return cst.Name("True")


def false() -> cst.Name:
    return cst.Name("False")


def none() -> cst.Name:
    return cst.Name("None")


def not_(value: cst.BaseExpression) -> cst.UnaryOperation:
    return cst.UnaryOperation(operator=cst.Not(), expression=value)


def parenthesize(value: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(value, (cst.Name, cst.Call, cst.Attribute, cst.Subscript)) or getattr(value, "lpar", None):
        return value
    return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def any_of(flags: Sequence[str]) -> cst.BaseExpression:
    """``a or b or c`` over flag names."""
    expr: cst.BaseExpression = cst.Name(flags[0])
    for f in flags[1:]:
        expr = cst.BooleanOperation(left=expr, operator=cst.Or(), right=cst.Name(f))
    return expr


def none_of(flags: Sequence[str]) -> cst.BaseExpression:
    """``not (a or b)`` (``not a`` for one flag)."""
    if len(flags) == 1:
        return not_(cst.Name(flags[0]))
    return not_(parenthesize(any_of(flags)))


def decl(kind: str, names: Sequence[str]) -> cst.SimpleStatementLine:
    items = [cst.NameItem(cst.Name(n)) for n in names]
    node = cst.Global(items) if kind == "global" else cst.Nonlocal(items)
    return line(node)


def function_def(fn_name: str, params: Sequence[str], body: Sequence[cst.BaseStatement]) -> cst.FunctionDef:
    return cst.FunctionDef(
        name=cst.Name(fn_name),
        params=cst.Parameters(params=[cst.Param(cst.Name(p)) for p in params]),
        body=cst.IndentedBlock(body=list(body) or [line(cst.Pass())]),
    )


def if_(test: cst.BaseExpression, body: Sequence[cst.BaseStatement], orelse=None) -> cst.If:
    return cst.If(test=test, body=cst.IndentedBlock(body=list(body)), orelse=orelse)


def anchored(stmt: cst.BaseStatement, lineno: int) -> cst.BaseStatement:
    """Mark ``stmt`` as coming from original line ``lineno`` (see lines.py)."""
    anchor = cst.EmptyLine(indent=True, whitespace=cst.SimpleWhitespace(""), comment=cst.Comment(f"#{MARK}{lineno}"))
    return stmt.with_changes(leading_lines=[*stmt.leading_lines, anchor])

"""Expression converters, applied in one walk per statement.

- logical: ``a and b`` -> ``ag__.and_(a, lambda: b)`` (chains flattened),
  ``or`` likewise, ``not a`` -> ``ag__.not_(a)``;
- conditional expressions: ``x if c else y`` -> ``ag__.if_exp(c, lambda: x, lambda: y)``;
- calls: ``f(...)`` -> ``ag__.converted(f)(...)`` (not builtins whose staged
  meaning is their Python one, nor methods of literals); zero-argument ``super()``
  -> ``super(__class__, <first parameter>)`` (it would not work inside the
  helper functions the control-flow converter creates).

An operand that would move into a lambda is left in Python form when it
contains ``:=``, ``yield`` or ``await`` (a lambda would change their meaning).

Entry: ``transform(node, ExpressionFacts) -> node`` (or ``rewriter(facts)``,
the same rewrite for many nodes of one function).
"""
from __future__ import annotations

import libcst as cst

from dataclasses import dataclass
from typing import Callable

from . import _nodes as n
from ._visiting import NodeRewriter, NodeVisitor


@dataclass(frozen=True)
class ExpressionFacts:
    """What the expression converter reads about the function."""

    first_param: str | None  # for ``super()``: None when the function has no positional parameter
    local_names: frozenset = frozenset()  # names the function binds: never treated as builtins


def rewriter(facts: ExpressionFacts) -> Callable:
    """``node -> node``: the expression rewrite of one function, for its
    expressions and simple statements."""
    return ExpressionConverter(facts.first_param, facts.local_names).rewrite


def transform(node, facts: ExpressionFacts):
    """Rewrite one expression or simple statement."""
    return rewriter(facts)(node)

# Builtins whose staged meaning is their Python meaning: calls to them stay as written
# (print is not one: Feature.BUILTIN_FUNCTIONS stages it).
_PLAIN_CALLS = frozenset(
    {
        "isinstance", "issubclass", "hasattr", "getattr", "setattr", "delattr",
        "type", "id", "repr", "callable", "globals", "hash", "format", "iter", "next",
        "object", "ValueError", "TypeError", "KeyError", "IndexError", "RuntimeError",
        "AssertionError", "StopIteration", "NotImplementedError", "AttributeError",
        "Exception", "ZeroDivisionError",
    }
)


class _Finder(NodeVisitor):
    def __init__(self):
        self.found = False

    def visit_NamedExpr(self, node):
        self.found = True
        return False

    def visit_Yield(self, node):
        self.found = True
        return False

    def visit_Await(self, node):
        self.found = True
        return False


def cannot_defer(node) -> bool:
    """Whether ``node`` contains ``:=``, ``yield`` or ``await`` (it cannot
    move into a lambda)."""
    finder = _Finder()
    finder.walk(node)
    return finder.found


_REPEATABLE = (cst.Name, cst.Integer, cst.Float, cst.SimpleString)
_COMPARE_OPS = {
    cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
    cst.Equal: "==", cst.NotEqual: "!=", cst.In: "in", cst.NotIn: "not in", cst.Is: "is", cst.IsNot: "is not",
}


class ExpressionConverter(NodeRewriter):
    """Rewrites one expression or simple statement."""

    def __init__(self, first_param: str | None, local_names=frozenset()):
        super().__init__()
        self.first_param = first_param
        self.local_names = local_names  # names the user binds: never treated as builtins
        # the and_/or_ calls made here -> (operator type, operands), so that an
        # outer `and` of the same kind extends them (children are rewritten first)
        self._logical: dict = {}

    # Nested user functions and classes are converted as functions, not here.
    def visit_FunctionDef(self, node):
        return False

    def visit_ClassDef(self, node):
        return False

    # -- logical ------------------------------------------------------------
    def leave_BooleanOperation(self, original, updated):
        op = type(updated.operator)
        operands = []

        def flatten(e):
            # (a or b) or c is a or b or c: same value, same short-circuit.
            made = self._logical.get(id(e))
            if type(e) is cst.BooleanOperation and type(e.operator) is op:
                flatten(e.left)
                flatten(e.right)
            elif made is not None and made[0] is e and made[1] is op:
                operands.extend(made[2])
            else:
                operands.append(e)

        flatten(updated)
        if any(cannot_defer(o) for o in operands[1:]):
            return updated
        name = "and_" if op is cst.And else "or_"
        args = [operands[0]] + [n.lam(_strip_parens(o)) for o in operands[1:]]
        made = _keep_parens(updated, n.ag_call(name, *args))
        self._logical[id(made)] = (made, op, operands)
        return made

    def leave_Comparison(self, original, updated):
        """``a < b < c`` -> ``ag__.and_(a < b, lambda: b < c)``: the same
        value and short-circuit, and a staged ``and`` on tensors, when the
        operands compared twice are names or literals (evaluating them again
        changes nothing). Other chains, ``a < f(x) <= c``, become
        ``ag__.compare(a, '<', f(x), '<=', lambda: c)``: each operand
        evaluated once, in order, up to the first false comparison."""
        parts = updated.comparisons
        if len(parts) < 2:
            return updated
        if not all(isinstance(p.comparator, _REPEATABLE) for p in parts[:-1]):
            if any(cannot_defer(p.comparator) for p in parts[1:]):
                return updated
            args = [_strip_parens(updated.left)]
            for i, p in enumerate(parts):
                args.append(cst.SimpleString(repr(_COMPARE_OPS[type(p.operator)])))
                comparator = _strip_parens(p.comparator)
                args.append(comparator if i == 0 else n.lam(comparator))
            return _keep_parens(updated, n.ag_call("compare", *args))
        pairs = []
        left = updated.left
        for p in parts:
            pairs.append(cst.Comparison(left=left, comparisons=[n.replace(p, comparator=p.comparator)]))
            left = p.comparator
        args = [pairs[0]] + [n.lam(pair) for pair in pairs[1:]]
        return _keep_parens(updated, n.ag_call("and_", *args))

    def leave_FlagTest(self, original, updated):
        return updated.converted()  # (generated flag names: nothing below it to rewrite)

    def leave_UnaryOperation(self, original, updated):
        if type(updated.operator) is cst.Not:
            return _keep_parens(updated, n.ag_call("not_", _strip_parens(updated.expression)))
        return updated

    # -- conditional expressions -------------------------------------------
    def leave_IfExp(self, original, updated):
        if cannot_defer(updated.body) or cannot_defer(updated.orelse):
            return updated
        return _keep_parens(
            updated,
            n.ag_call(
                "if_exp",
                _strip_parens(updated.test),
                n.lam(_strip_parens(updated.body)),
                n.lam(_strip_parens(updated.orelse)),
            ),
        )

    # -- calls --------------------------------------------------------------
    def leave_Call(self, original, updated):
        func = updated.func
        if type(func) is cst.Name:
            if func.value == "super" and not updated.args:
                if self.first_param is None:
                    return updated
                return n.replace(updated, 
                    args=[
                        cst.Arg(cst.Name("__class__"), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                        cst.Arg(cst.Name(self.first_param)),
                    ]
                )
            if func.value in _PLAIN_CALLS and func.value not in self.local_names:
                return updated
        elif type(func) is cst.Attribute:
            if type(func.value) is cst.Name and func.value.value == n.AG:
                return updated
            if isinstance(func.value, _LITERALS):
                return updated  # ', '.join(...), '{}'.format(...): a builtin type's method
        return n.replace(updated, func=n.ag_call("converted", func))


# Expressions whose value is always of a builtin type (str, bytes, numbers,
# list, dict, set, tuple): calling one of its methods needs no conversion.
_LITERALS = (
    cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float, cst.Imaginary,
    cst.List, cst.Dict, cst.Set, cst.Tuple, cst.ListComp, cst.DictComp, cst.SetComp,
)


_STRIPPABLE = (
    cst.Comparison, cst.BinaryOperation, cst.UnaryOperation, cst.BooleanOperation, cst.Call,
    cst.Attribute, cst.Name, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString,
)


def _strip_parens(e):
    if isinstance(e, _STRIPPABLE) and e.lpar and len(e.lpar) == 1:
        return n.replace(e, lpar=[], rpar=[])
    return e


def _keep_parens(old, new):
    if old.lpar:
        return n.replace(new, lpar=old.lpar, rpar=old.rpar)
    return new

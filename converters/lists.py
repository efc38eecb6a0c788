"""List accumulation in a form a staged loop can turn into a TensorArray.

- statement ``xs.append(v)`` -> ``xs = ag__.list_append(xs, v)``
- statement ``v = xs.pop(...)`` -> ``xs, v = ag__.list_pop(xs, ...)``
- statement ``xs.pop(...)`` -> ``xs = ag__.list_pop(xs, ...)[0]``
- ``return xs.pop(...)`` -> ``return ag__.list_pop(xs, ...)[1]``
- statement ``t += xs.pop(...)`` (any augmented operator) ->
  ``xs, t = ag__.list_pop_aug(xs, '+=', t, ...)``

(``pop`` elsewhere in an expression stays as written: a staged list cannot
change in the middle of an expression, and says so when it is tried.)

Only local variables of the function are rewritten (``self.xs.append`` or a
global list stay as written): the rebinding must not change which object any
other name sees, and on Python lists ``list_append``/``list_pop`` return the
same list object.

Entry: ``transform(small, local_names) -> small | None`` (a statement-level
rewrite the function's driver gives the control-flow converter).
"""
from __future__ import annotations

import libcst as cst

from . import _nodes as n


def _method_call(expr, method):
    if (
        type(expr) is cst.Call
        and type(expr.func) is cst.Attribute
        and type(expr.func.value) is cst.Name
        and expr.func.attr.value == method
        and not expr.func.value.lpar
        and all(a.keyword is None and not a.star for a in expr.args)
    ):
        return expr.func.value.value, [a.value for a in expr.args]
    return None


def _pop(expr, local_names):
    """``(list name, pop arguments)`` when ``expr`` is ``xs.pop(...)`` on a local."""
    found = _method_call(expr, "pop")
    if found and len(found[1]) <= 1 and found[0] in local_names:
        return found
    return None


def _item(expr, index: int):
    return cst.Subscript(value=expr, slice=[cst.SubscriptElement(cst.Index(cst.Integer(str(index))))])


def transform(small, local_names):
    """The small statement ``small`` in its list-operator form; None when it
    has none. ``local_names``: the function's local variables (a container)."""
    if type(small) is cst.Expr:
        found = _method_call(small.value, "append")
        if found and len(found[1]) == 1 and found[0] in local_names:
            target, args = found
            return cst.Assign(
                targets=[cst.AssignTarget(n.name(target))],
                value=n.ag_call("list_append", n.name(target), args[0]),
            )
        found = _pop(small.value, local_names)
        if found:
            target, args = found
            return cst.Assign(
                targets=[cst.AssignTarget(n.name(target))],
                value=_item(n.ag_call("list_pop", n.name(target), *args), 0),
            )
        return None
    if type(small) is cst.Return and small.value is not None:
        found = _pop(small.value, local_names)
        if found:
            target, args = found
            return n.replace(small, value=_item(n.ag_call("list_pop", n.name(target), *args), 1))
        return None
    if type(small) is cst.AugAssign and type(small.target) is cst.Name:
        found = _pop(small.value, local_names)
        if found and found[0] != small.target.value:
            target, args = found
            op = cst.SimpleString(repr(cst.Module([]).code_for_node(small.operator).strip()))
            return cst.Assign(
                targets=[cst.AssignTarget(cst.Tuple([cst.Element(n.name(target)), cst.Element(small.target)], lpar=[],
                                                    rpar=[]))],
                value=n.ag_call("list_pop_aug", n.name(target), op, n.name(small.target.value), *args),
            )
        return None
    if type(small) is cst.Assign and len(small.targets) == 1 and type(small.targets[0].target) is cst.Name:
        found = _pop(small.value, local_names)
        if found:
            target, args = found
            if target == small.targets[0].target.value:
                return None
            return cst.Assign(
                targets=[
                    cst.AssignTarget(cst.Tuple([cst.Element(n.name(target)), cst.Element(small.targets[0].target)], lpar=[], rpar=[]))
                ],
                value=n.ag_call("list_pop", n.name(target), *args),
            )
    return None

"""A coarse guess of whether an expression is a tensor.

Three answers: PY (certainly a plain Python value: a literal, ``len(...)``,
``x is None``, ``isinstance(...)``, a shape), TENSOR (certainly a tensor: the
result of a ``tf.*`` op, or arithmetic and comparisons on one) and UNKNOWN
(a parameter, the result of a user call ...). BOTTOM means "no information
yet" while local names are being solved.

Rules that fire on "may be a tensor" treat UNKNOWN as a tensor; rules that
fire on "is a tensor" require TENSOR. Both choices keep false positives down.
"""
from __future__ import annotations

import ast
import builtins
from typing import Callable

BOTTOM, PY, TENSOR, UNKNOWN = 0, 1, 2, 3

_BUILTINS = frozenset(dir(builtins))
# Builtins whose result is a plain Python value whatever their arguments are.
_PY_CALLS = frozenset(
    "isinstance issubclass callable hasattr len type id str repr int float bool "
    "print format hash ord chr dict set frozenset object super open list tuple "
    "ascii bin hex oct dir globals locals vars".split()
)
# Builtins that AutoGraph overloads for tensors: the result follows the arguments.
_FOLLOW_CALLS = frozenset("range abs min max sum enumerate zip reversed sorted iter next map filter round".split())
# tf functions that return Python values (or objects that are not tensors).
_PY_TF_FUNCS = frozenset(
    "is_tensor executing_eagerly TensorSpec TensorShape function get_static_value "
    "as_dtype DType print init_scope GradientTape".split()
)
# Attributes of a tensor that are static Python values.
_STATIC_ATTRS = frozenset("shape dtype ndim name rank device".split())
# Methods that only plain Python containers have.
_PY_METHODS = frozenset("items keys values".split())


def join(a: int, b: int) -> int:
    if a == b or b == BOTTOM:
        return a
    if a == BOTTOM:
        return b
    return UNKNOWN


def combine(classes) -> int:
    """The class of an operation on values of these classes: TENSOR if one
    is; else BOTTOM (no answer yet) while one is still BOTTOM, so that
    solving locals in any order reaches the same answer (``t = s * 2`` read
    before ``s = tf.op(...)`` is solved must not settle on PY)."""
    seen = BOTTOM
    waiting = False
    for c in classes:
        if c == TENSOR:
            return TENSOR
        if c == BOTTOM:
            waiting = True
        elif c == UNKNOWN:
            seen = UNKNOWN
        elif seen == BOTTOM:
            seen = PY
    return BOTTOM if waiting else seen


class Classifier:
    """Classifies expressions given a lookup for names and the module's imports."""

    def __init__(self, lookup: Callable[[str], int], qualify: Callable[[ast.AST], str | None], is_tf: Callable[[str | None], bool], shadowed: Callable[[str], bool]):
        self.lookup = lookup
        self.qualify = qualify
        self.is_tf = is_tf
        self.shadowed = shadowed  # a builtin name rebound by the user

    def __call__(self, e: ast.AST) -> int:
        c = self.classify(e)
        return UNKNOWN if c == BOTTOM else c

    def classify(self, e: ast.AST) -> int:
        try:
            return self._classify(e)
        except RecursionError:  # an absurdly deep expression: no opinion
            return UNKNOWN

    def _classify(self, e: ast.AST) -> int:
        if isinstance(e, ast.Constant):
            return PY
        if isinstance(e, ast.Name):
            return self.lookup(e.id)
        if isinstance(e, ast.Compare):
            if all(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in e.ops):
                return PY
            return combine(self._classify(x) for x in [e.left, *e.comparators])
        if isinstance(e, ast.BoolOp):
            return combine(self._classify(x) for x in e.values)
        if isinstance(e, ast.BinOp):
            operands = []
            while isinstance(e, ast.BinOp):  # `a + b + c ...` nests to the left
                operands.append(e.right)
                e = e.left
            operands.append(e)
            return combine(self._classify(x) for x in operands)
        if isinstance(e, ast.UnaryOp):
            return self._classify(e.operand)
        if isinstance(e, ast.IfExp):
            return combine((self._classify(e.test), self._classify(e.body), self._classify(e.orelse)))
        if isinstance(e, (ast.JoinedStr, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp,
                          ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
            return PY
        if isinstance(e, ast.NamedExpr):
            return self._classify(e.value)
        if isinstance(e, ast.Attribute):
            q = self.qualify(e)
            if q is not None:
                return PY  # a module attribute: a function, a dtype, a class
            if e.attr in _STATIC_ATTRS:
                return PY
            base = self._classify(e.value)
            # An attribute of a Python object (`self.use_bias`, `self.layers`)
            # is taken for Python configuration.
            return base if base in (TENSOR, BOTTOM, PY) else UNKNOWN
        if isinstance(e, ast.Subscript):
            if isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
                return PY
            base = self._classify(e.value)
            if base == TENSOR:
                return TENSOR
            if isinstance(e.value, ast.Constant):
                return PY
            return BOTTOM if base == BOTTOM else UNKNOWN
        if isinstance(e, ast.Call):
            return self._call(e)
        return UNKNOWN

    def _call(self, e: ast.Call) -> int:
        f = e.func
        q = self.qualify(f)
        if q is not None and self.is_tf(q):
            return PY if q.rsplit(".", 1)[-1] in _PY_TF_FUNCS else TENSOR
        if isinstance(f, ast.Name) and f.id in _BUILTINS and not self.shadowed(f.id):
            if f.id in _PY_CALLS:
                return PY
            if f.id in _FOLLOW_CALLS:
                args = [a.value if isinstance(a, ast.Starred) else a for a in e.args]
                return combine(self._classify(a) for a in args) if args else PY
            return UNKNOWN
        if isinstance(f, ast.Attribute):
            if f.attr in _PY_METHODS:
                return PY
            if f.attr == "numpy":
                return PY
            base = self._classify(f.value)
            if base == TENSOR:
                return TENSOR
            if base == BOTTOM:
                return BOTTOM
        return UNKNOWN

    def element(self, it: ast.AST) -> int:
        """The class of the items a ``for`` loop takes from an iterable."""
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and not self.shadowed("range"):
            return combine(self.classify(a) for a in it.args) or PY
        if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
            return combine(self.classify(x) for x in it.elts) or PY
        c = self.classify(it)
        if c == TENSOR:
            return TENSOR
        return BOTTOM if c == BOTTOM else UNKNOWN

    def is_python_iterable(self, it: ast.AST) -> bool:
        """Whether a ``for`` loop over ``it`` certainly stays a Python loop."""
        return self(it) == PY

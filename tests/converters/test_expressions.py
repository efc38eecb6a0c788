"""expressions.transform: one expression in, its converted text out."""
import libcst as cst
import pytest

from converters.expressions import ExpressionFacts, transform

CASES = [
    # logical operators, chains flattened (same value, same short-circuit)
    ("a and b", "ag__.and_(a, lambda: b)"),
    ("a or b or c", "ag__.or_(a, lambda: b, lambda: c)"),
    ("(a and b) and c", "ag__.and_(a, lambda: b, lambda: c)"),
    ("a and (b and c)", "ag__.and_(a, lambda: b, lambda: c)"),
    ("a and b or c", "ag__.or_(ag__.and_(a, lambda: b), lambda: c)"),
    ("not x", "ag__.not_(x)"),
    ("not (a or b)", "ag__.not_(ag__.or_(a, lambda: b))"),
    # conditional expressions
    ("x if c else y", "ag__.if_exp(c, lambda: x, lambda: y)"),
    ("(x if c else y) + 1", "(ag__.if_exp(c, lambda: x, lambda: y)) + 1"),
    # comparison chains whose repeated operands are names or literals
    ("a < b < c", "ag__.and_(a < b, lambda: b < c)"),
    ("0 <= i < n", "ag__.and_(0 <= i, lambda: i < n)"),
    # other chains: each operand evaluated once, in order, up to the first false comparison
    ("a < f() < c", "ag__.compare(a, '<', ag__.converted(f)(), '<', lambda: c)"),
    ("x < y + 1 <= z is not None", "ag__.compare(x, '<', y + 1, '<=', lambda: z, 'is not', lambda: None)"),
    ("0 <= (i + 1) not in s", "ag__.compare(0, '<=', i + 1, 'not in', lambda: s)"),
    # calls
    ("f(x)", "ag__.converted(f)(x)"),
    ("obj.m(1, *a, k=2)", "ag__.converted(obj.m)(1, *a, k=2)"),
    ("len(x)", "ag__.converted(len)(x)"),
    ("isinstance(x, int)", "isinstance(x, int)"),
    ("', '.join(xs)", "', '.join(xs)"),
    ("[1, 2].index(2)", "[1, 2].index(2)"),
    ("ag__.if_stmt(x)", "ag__.if_stmt(x)"),
    ("f(g(x))", "ag__.converted(f)(ag__.converted(g)(x))"),
    ("super().m()", "ag__.converted(super(__class__, self).m)()"),
    # operands that cannot move into a lambda stay as written
    ("x if (y := 1) else z", "ag__.if_exp((y := 1), lambda: x, lambda: z)"),
    ("a if c else (y := 2)", "a if c else (y := 2)"),
    ("a and (yield)", "a and (yield)"),
    ("a or (b := 1)", "a or (b := 1)"),
    # nested scopes are converted as functions, never here; a lambda's body is
    ("lambda: a and b", "lambda: ag__.and_(a, lambda: b)"),
    ("x + 1", "x + 1"),
]


def _convert(src, first_param="self", local_names=frozenset()):
    node = cst.parse_expression(src)
    return cst.Module([]).code_for_node(transform(node, ExpressionFacts(first_param, local_names)))


@pytest.mark.parametrize("src, expected", CASES)
def test_expression(src, expected):
    assert _convert(src) == expected


def test_a_local_name_shadowing_a_builtin_is_converted():
    assert _convert("isinstance(x, int)", local_names=frozenset({"isinstance"})) == "ag__.converted(isinstance)(x, int)"


def test_super_without_a_first_parameter_stays():
    assert _convert("super()", first_param=None) == "super()"


def test_an_unchanged_expression_is_the_same_object():
    node = cst.parse_expression("x + y[1]")
    assert transform(node, ExpressionFacts(None)) is node

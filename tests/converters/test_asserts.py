"""asserts.transform: an assert in, an assert that calls the operators out."""
import libcst as cst
import pytest

from converters import asserts

CASES = [
    ("assert x", "assert ag__.assert_stmt(x)"),
    ("assert x > 0, 'positive'", "assert ag__.assert_stmt(x > 0, lambda: 'positive'), 'positive'"),
    ("assert(x)", "assert ag__.assert_stmt((x))"),
    ("assert x, f'{y}'", "assert ag__.assert_stmt(x, lambda: f'{y}'), f'{y}'"),
    # a message that cannot move into a lambda is not deferred
    ("assert x, (m := 'bad')", "assert ag__.assert_stmt(x), (m := 'bad')"),
    ("x = 1", None),
]


@pytest.mark.parametrize("src, expected", CASES)
def test_assert(src, expected):
    small = cst.parse_statement(src + "\n").body[0]
    out = asserts.transform(small)
    if expected is None:
        assert out is None
    else:
        assert cst.Module([]).code_for_node(out) == expected

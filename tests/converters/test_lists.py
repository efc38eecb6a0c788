"""lists.transform: one small statement in, its list-operator form out."""
import libcst as cst
import pytest

from converters import lists

CASES = [
    ("xs.append(v)", "xs = ag__.list_append(xs, v)"),
    ("xs.append(f(v))", "xs = ag__.list_append(xs, f(v))"),
    ("v = xs.pop()", "xs, v = ag__.list_pop(xs)"),
    ("v = xs.pop(0)", "xs, v = ag__.list_pop(xs, 0)"),
    ("xs.pop()", "xs = ag__.list_pop(xs)[0]"),
    ("return xs.pop()", "return ag__.list_pop(xs)[1]"),
    # left as written (None): not a local, not a statement form, other methods
    ("self.xs.append(v)", None),
    ("g.append(v)", None),
    ("xs.append(*vs)", None),
    ("xs.append(v, w)", None),
    ("xs = xs.pop()", None),
    ("y = xs.pop(0) + 1", None),
    ("xs.extend(v)", None),
    ("(xs).append(v)", None),
]


@pytest.mark.parametrize("src, expected", CASES)
def test_list_statement(src, expected):
    small = cst.parse_statement(src + "\n").body[0]
    out = lists.transform(small, frozenset({"xs", "v", "self"}))
    if expected is None:
        assert out is None
    else:
        assert cst.Module([]).code_for_node(out) == expected

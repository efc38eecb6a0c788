"""Nothing lost: the user's comments and blank lines survive conversion, each
mapped (by the line map) to its own line of the original -- in ``to-code``'s
functional form, in the dual form, and in the files ``autograph convert``
writes (functional forms as defs of their own)."""
import importlib.util
import io
import tokenize
from collections import Counter

import pytest

from converters import convert

MODES = {
    "to-code": {"fast_path": False},
    "dual": {"fast_path": True},
    "convert": {"fast_path": True, "lazy": True, "lazy_defs": True},
}

SRC = '''\
def f(x):
    # above the first statement
    # (two lines of it)
    s = 0
    for i in range(x):
        if i % 2:
            s += i
        # end of the loop body
    return s
    # after the return

    # after a blank line


class K:
    def m(self, n):

        # above, after a blank line
        while n > 0:
            n -= 1
        return n
        # the method's last word
X = 1
'''


def _comments(code):
    return [(t.start[0], t.string) for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type == tokenize.COMMENT]


def _check(source, result, complete=True):
    """Every comment of the output sits on the original line the line map
    gives it; with ``complete``, every comment of ``source`` is there."""
    lines = source.splitlines()
    got = _comments(result.code)
    for line, text in got:
        original = lines[result.line_map[line - 1] - 1]
        assert original.strip().endswith(text), (line, text, result.line_map[line - 1], original)
    if complete:
        assert Counter(t for _, t in got) >= Counter(t for _, t in _comments(source))


@pytest.mark.parametrize("mode", MODES)
def test_comments_at_the_start_and_end_of_a_body_are_kept_at_their_lines(mode):
    result = convert(SRC, **MODES[mode])
    _check(SRC, result)
    code = result.code
    for comment in ("above the first statement", "(two lines of it)", "above, after a blank line"):
        assert f"# {comment}\n" in code
    # the end of a body: its comments and the blank line between them
    assert "    return s\n    # after the return\n\n    # after a blank line\n" in code
    assert "# the method's last word\n" in code
    compile(code, "<converted>", "exec")


@pytest.mark.parametrize("mode", MODES)
def test_blank_lines_map_to_blank_lines(mode):
    result = convert(SRC, **MODES[mode])
    lines = SRC.splitlines()
    for i, text in enumerate(result.code.splitlines()):
        if not text.strip() and lines[result.line_map[i] - 1].strip():
            # (blank lines the converter adds to set a generated def apart
            # may map anywhere; the user's own are blank in the original)
            assert mode == "convert", (i + 1, result.line_map[i])


@pytest.mark.parametrize("mode", ["dual", "convert"])
@pytest.mark.parametrize("name", ["textwrap", "argparse", "difflib", "dataclasses", "shlex"])
def test_standard_library_comments_all_kept_and_mapped(name, mode):
    path = importlib.util.find_spec(name).origin
    with open(path, encoding="utf-8") as f:
        source = f.read()
    _check(source, convert(source, filename=path, **MODES[mode]))


@pytest.mark.parametrize("name", ["textwrap", "argparse", "difflib", "dataclasses", "shlex"])
def test_standard_library_comments_of_the_functional_form_map_to_their_lines(name):
    path = importlib.util.find_spec(name).origin
    with open(path, encoding="utf-8") as f:
        source = f.read()
    _check(source, convert(source, filename=path, fast_path=False), complete=False)


def test_comments_closing_blocks_and_above_clauses_are_kept_in_to_code():
    """The functional form keeps the comments after the last statement of
    an if/else/while/for/try block and those above ``else:``/``except``
    (the golden samples/commented.py shows where), each at its own line."""
    src = """\
def f(xs, limit):
    total = 0
    for x in xs:
        if x > limit:
            total += limit
            # A clipped
        # B before else
        else:
            total += x
            # C added
    # D after the loop
    while total > limit:
        total -= 1
        # E end of while
    try:
        total = total // limit
        # F end of try
    # G before except
    except ZeroDivisionError:
        total = 0
        # H end of except
    # I before finally
    finally:
        pass
        # J end of finally
    return total
"""
    for mode in MODES:
        result = convert(src, **MODES[mode])
        _check(src, result)
    code = convert(src, fast_path=False).code
    for letter in "ABCEFGHIJ":
        assert code.count(f"# {letter} ") == 1, (letter, code)


def test_comments_closing_a_block_that_ends_with_a_lowered_jump_are_kept():
    """A block whose last statement is a ``break``, ``continue`` or a
    ``return`` inside control flow (lowered to flags) keeps the comments
    after it, in every form, each at its own line."""
    src = """\
def f(xs, limit):
    i = 0
    for x in xs:
        if x > limit:
            return i
            # A after a return
        if x < 0:
            break
            # B after a break
        if x == 0:
            i += 2
            continue
            # C after a continue
        i += 1
        # D end of the loop body
    return -1


def g(x):
    if x > 0:
        return 1
        # E after a folded return
    elif x < 0:
        y = -x
        return y
        # F after another
    return 0
"""
    for mode in MODES:
        result = convert(src, **MODES[mode])
        _check(src, result)
    code = convert(src, fast_path=False).code
    for letter in "ABCDEF":
        assert code.count(f"# {letter} ") == 1, (letter, code)

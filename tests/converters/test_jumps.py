"""Jump lowering (break, continue, return inside control flow): a function
in, its functional form out. Sources start with a blank line, so generated
names carry the lines as written here."""
import textwrap

import pytest

from converters import convert

CASES = {
    "a_finally_whose_every_path_returns_drops_what_the_try_did": (
        """
        def f(x):
            try:
                x = x + 1
            finally:
                if x:
                    return 1
                return 2
        """,
        """
        def f(x):
            retval_ = ag__.NO_RETURN
            try:
                x = x + 1
            except BaseException:
                pass
            def if_body_6():
                nonlocal retval_
                retval_ = 1
            def else_body_6():
                nonlocal retval_
                retval_ = 2
            ag__.if_stmt(x, if_body_6, else_body_6, ('retval_',))
            return ag__.retval(retval_)
        """,
    ),
    "break_becomes_a_flag_the_loop_tests": (
        """
        def f(xs):
            s = 0
            for x in xs:
                if x < 0:
                    break
                s += x
            return s
        """,
        """
        def f(xs):
            x: object
            s = 0
            break_4 = False
            def extra_test_4():
                return ag__.not_(break_4)
            def loop_body_4(item):
                nonlocal break_4, s, x
                x = item
                def if_body_5():
                    nonlocal break_4
                    break_4 = True
                ag__.if_stmt(x < 0, if_body_5, None, ('break_4',))
                def rest_7():
                    nonlocal s
                    s += x
                ag__.if_stmt(ag__.not_(break_4), rest_7, None, ('s',))
            ag__.for_stmt(xs, extra_test_4, loop_body_4, ('break_4', 's'))
            return s
        """,
    ),
    "continue_guards_the_rest_and_else_runs_after": (
        """
        def f(xs):
            for x in xs:
                if x:
                    continue
                print(x)
            else:
                print("done")
        """,
        """
        def f(xs):
            x: object
            def loop_body_3(item):
                nonlocal x
                x = item
                continue_3 = False
                def if_body_4():
                    nonlocal continue_3
                    continue_3 = True
                ag__.if_stmt(x, if_body_4, None, ('continue_3',))
                def rest_6():
                    ag__.converted(print)(x)
                ag__.if_stmt(ag__.not_(continue_3), rest_6, None, ())
            ag__.for_stmt(xs, None, loop_body_3, ())
            ag__.converted(print)("done")
        """,
    ),
    "return_in_a_loop_sets_do_return_and_retval": (
        """
        def f(n):
            while n > 0:
                if n == 3:
                    return n
                n -= 1
            return -1
        """,
        """
        def f(n):
            do_return = False
            retval_ = ag__.UNDEFINED_RETURN
            def loop_test_3():
                return ag__.and_(ag__.not_(do_return), lambda: n > 0)
            def loop_body_3():
                nonlocal do_return, n, retval_
                def if_body_4():
                    nonlocal do_return, retval_
                    retval_ = n
                    do_return = True
                def else_body_4():
                    nonlocal n
                    n -= 1
                ag__.if_stmt(n == 3, if_body_4, else_body_4, ('do_return', 'n', 'retval_'))
            ag__.while_stmt(loop_test_3, loop_body_3, ('do_return', 'n', 'retval_'))
            def rest_7():
                nonlocal do_return, retval_
                retval_ = -1
                do_return = True
            ag__.if_stmt(ag__.not_(do_return), rest_7, None, ('retval_',))
            return retval_
        """,
    ),
    "early_return_folds_into_if_else": (
        """
        def f(x):
            if x:
                return 1
            return 2
        """,
        """
        def f(x):
            retval_ = ag__.NO_RETURN
            def if_body_3():
                nonlocal retval_
                retval_ = 1
            def else_body_3():
                nonlocal retval_
                retval_ = 2
            ag__.if_stmt(x, if_body_3, else_body_3, ('retval_',))
            return retval_
        """,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_jumps(name):
    src, expected = CASES[name]
    assert convert(textwrap.dedent(src), fast_path=False).code == textwrap.dedent(expected)


@pytest.mark.parametrize("src, reason", [
    ("def f(xs):\n    for x in xs:\n        try:\n            pass\n        finally:\n            break\n", "break inside finally"),
    ("def f(x):\n    try:\n        pass\n    finally:\n        if x:\n            return 1\n", "return inside finally"),
])
def test_jumps_inside_finally_are_left_as_they_are(src, reason):
    result = convert(src)
    assert result.code == src
    assert [(r.qualname, r.converted, r.reason) for r in result.report] == [("f", False, reason)]

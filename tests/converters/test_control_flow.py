"""The control-flow converter: a function in, its functional form out
(``fast_path=False``, what ``autograph to-code`` prints). Sources start
with a blank line, so generated names carry the lines as written here."""
import textwrap

import pytest

from converters import convert

CASES = {
    "if_else_defines_a_name": (
        """
        def f(x):
            if x > 0:
                y = 1
            else:
                y = 2
            return y
        """,
        """
        def f(x):
            y: object
            def if_body_3():
                nonlocal y
                y = 1
            def else_body_3():
                nonlocal y
                y = 2
            ag__.if_stmt(x > 0, if_body_3, else_body_3, ('y',))
            return y
        """,
    ),
    "while_carries_what_it_modifies": (
        """
        def f(n):
            i = 0
            while i < n:
                i += 1
            return i
        """,
        """
        def f(n):
            i = 0
            def loop_test_4():
                return i < n
            def loop_body_4():
                nonlocal i
                i += 1
            ag__.while_stmt(loop_test_4, loop_body_4, ('i',))
            return i
        """,
    ),
    "for_unpacks_its_item": (
        """
        def f(pairs):
            s = 0
            for a, b in pairs:
                s += a * b
            return s
        """,
        """
        def f(pairs):
            a: object
            b: object
            s = 0
            def loop_body_4(item):
                nonlocal a, b, s
                a, b = item
                s += a * b
            ag__.for_stmt(pairs, None, loop_body_4, ('s',))
            return s
        """,
    ),
    "elif_nests_in_the_else_body": (
        """
        def f(x):
            if x < 0:
                s = -1
            elif x == 0:
                s = 0
            else:
                s = 1
            return s
        """,
        """
        def f(x):
            s: object
            def if_body_3():
                nonlocal s
                s = -1
            def else_body_3():
                nonlocal s
                def if_body_5():
                    nonlocal s
                    s = 0
                def else_body_5():
                    nonlocal s
                    s = 1
                ag__.if_stmt(x == 0, if_body_5, else_body_5, ('s',))
            ag__.if_stmt(x < 0, if_body_3, else_body_3, ('s',))
            return s
        """,
    ),
    "attribute_assigned_in_a_branch_is_carried_by_name": (
        """
        def f(self, x):
            if x:
                self.n = 1
            return self.n
        """,
        """
        def f(self, x):
            def if_body_3():
                self.n = 1
            ag__.if_stmt(x, if_body_3, None, ('self.n',))
            return self.n
        """,
    ),
    "try_stays_a_statement_its_blocks_converted": (
        """
        def f(x):
            try:
                if x:
                    y = 1
            except ValueError:
                y = 2
            return y
        """,
        """
        def f(x):
            try:
                def if_body_4():
                    nonlocal y
                    y = 1
                ag__.if_stmt(x, if_body_4, None, ('y',))
            except ValueError:
                y = 2
            return y
        """,
    ),
    "global_names_are_declared_global_in_helpers": (
        """
        def f(x):
            global total
            if x:
                total = x
        """,
        """
        def f(x):
            global total
            def if_body_4():
                global total
                total = x
            ag__.if_stmt(x, if_body_4, None, ('total',))
        """,
    ),
    "list_append_and_assert_in_a_loop": (
        """
        def f(xs):
            out = []
            for x in xs:
                assert x, 'empty'
                out.append(x)
            return out
        """,
        """
        def f(xs):
            x: object
            out = []
            def loop_body_4(item):
                nonlocal out, x
                x = item
                assert ag__.assert_stmt(x, lambda: 'empty'), 'empty'
                out = ag__.list_append(out, x)
            ag__.for_stmt(xs, None, loop_body_4, ('out',))
            return out
        """,
    ),
}


def functional_form(src):
    return convert(textwrap.dedent(src), fast_path=False).code


@pytest.mark.parametrize("name", sorted(CASES))
def test_control_flow(name):
    src, expected = CASES[name]
    assert functional_form(src) == textwrap.dedent(expected)


def _loop_state(src):
    code = functional_form(src)
    return [line.strip() for line in code.splitlines() if "ag__.for_stmt(" in line]


def test_names_an_if_test_or_a_for_iterable_reads_are_live_before_it():
    """A loop variable read only by a later if test (or for iterable) is
    carried by the loop: the test's reads were looked up on the expression,
    which had no recorded facts, so the loop carried nothing and a staged
    run read the loop body's tensor ("cannot be accessed here")."""
    assert _loop_state("""
        def f(a, b):
            z = 1
            for i in a:
                z = b
            if z <= b:
                pass
        """) == ["ag__.for_stmt(a, None, loop_body_4, ('z',))"]
    assert _loop_state("""
        def f(a, b):
            z = 1
            for i in a:
                z = b
            if a:
                pass
            elif z or b:
                b = 2
        """)[0] == "ag__.for_stmt(a, None, loop_body_4, ('z',))"
    assert _loop_state("""
        def f(a, b):
            z = 1
            for i in a:
                z = b
            for j in z:
                pass
        """)[0] == "ag__.for_stmt(a, None, loop_body_4, ('z',))"

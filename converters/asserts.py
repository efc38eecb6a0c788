"""``assert test, msg`` -> ``assert ag__.assert_stmt(test, lambda: msg), msg``.

It stays a real ``assert``: ``python -O`` still strips it, the message stays
lazy, and a failure is raised from the user's own line. On a Python value
``assert_stmt`` returns the test unchanged (the lambda is not called); on a
staged one the backend records a staged check carrying the message (the
lambda, called once while tracing) and returns True.

Entry: ``transform(small) -> small | None`` (a statement-level rewrite the
function's driver gives the control-flow converter).
"""
from __future__ import annotations

import libcst as cst

from . import _nodes as n
from .expressions import cannot_defer


def transform(small):
    """The ``assert`` statement ``small`` rewritten; None for any other statement."""
    if type(small) is not cst.Assert:
        return None
    args = [small.test]
    if small.msg is not None and not cannot_defer(small.msg):
        args.append(n.lam(small.msg))
    changes = {"test": n.ag_call("assert_stmt", *args)}
    if not small.whitespace_after_assert.value:  # assert(x): the call needs a space
        changes["whitespace_after_assert"] = cst.SimpleWhitespace(" ")
    return n.replace(small, **changes)

"""``assert test, msg`` -> ``if __debug__: ag__.assert_stmt(test, lambda: msg)``.

The ``if __debug__:`` keeps Python's behaviour under ``python -O`` (the
compiler drops the block); the message stays lazy, as in Python.
"""
from __future__ import annotations

import libcst as cst

from converters import _nodes as n


def convert(small):
    if not isinstance(small, cst.Assert):
        return None
    args = [small.test]
    if small.msg is not None:
        args.append(n.lam(small.msg))
    return n.if_(n.name("__debug__"), [n.expr_stmt(n.ag_call("assert_stmt", *args))])

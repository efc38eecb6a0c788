"""``assert test, msg`` -> ``assert ag__.assert_stmt(test), msg``.

It stays a real ``assert``: ``python -O`` still strips it, the message stays
lazy, and a failure is raised from the user's own line. On a Python value
``assert_stmt`` returns the test unchanged; on a staged one the backend
records a staged check and returns True.
"""
from __future__ import annotations

import libcst as cst

from converters import _nodes as n


def convert(small):
    if not isinstance(small, cst.Assert):
        return None
    return small.with_changes(test=n.ag_call("assert_stmt", small.test))

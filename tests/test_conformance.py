"""Conformance corpus (tests/conformance/): each program runs as plain Python
and through tf.function on tensors; results, printed output and exception
types must agree (see tests/conformance/harness.py). Cases that fail today
carry a strict xfail naming their failure class (tests/conformance/FAILURES.md)."""
from __future__ import annotations

import pytest

from conformance.harness import load_cases, check_case, FAILURE_CLASSES

CASES = load_cases()


def _param(c):
    marks = []
    if c.xfail:
        marks.append(pytest.mark.xfail(strict=True, reason=f"{c.xfail}: {FAILURE_CLASSES[c.xfail]}"))
    return pytest.param(c, id=c.id, marks=marks)


@pytest.mark.parametrize("c", [_param(c) for c in CASES])
def test_conformance(c):
    problems = check_case(c)
    assert not problems, "\n".join(problems)

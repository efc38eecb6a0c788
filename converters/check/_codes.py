"""The diagnostic codes of ``autograph check`` and their one-line descriptions.

Codes are stable: a code is never reused for a different rule.

- AG1xx: control flow that a staged ``if``/loop cannot express.
- AG2xx: Python side effects, which run only while a function is traced.
- AG3xx: ``tf.Variable`` creation.
- AG4xx: constructs the converter leaves unconverted.
"""
from __future__ import annotations

CODES: dict[str, str] = {
    "AG101": "variable assigned in only some branches of an `if` whose condition may be a tensor, and used after it",
    "AG102": "variable first assigned inside a loop that may be staged, and used after the loop (raises if it runs zero times)",
    "AG103": "`break` or `return` that depends on a tensor inside a Python loop (raises while tracing, as in TensorFlow)",
    "AG104": "recursive call of a staged function",
    "AG105": "`return` in only some branches of an `if` whose condition may be a tensor, in a function that can fall off its end",
    "AG201": "mutation of a list, dict or set that lives outside the staged function",
    "AG202": "write to a `global` or `nonlocal` name inside a staged function",
    "AG203": "attribute write on an object that lives outside the staged function",
    "AG204": "`next()` on a Python iterator passed in as an argument",
    "AG205": "read of a plain Python global that the module rebinds (its traced value is frozen)",
    "AG301": "`tf.Variable` created on every call of a staged function",
    "AG401": "`yield` in a staged function (generators are left unconverted)",
    "AG402": "`locals()`, `vars()`, `exec` or `eval` in a staged function (left unconverted)",
    "AG403": "`return`, `break` or `continue` inside `finally` (left unconverted)",
    "AG404": "`async` staged function (left unconverted)",
}

"""``autograph check``: the tf.function pitfalls of the seed documents, found
statically in the functions that will be staged.

    from ..check import check_source, CODES
    diags = check_source(source, filename, select=None, ignore=None, staged=None)

``check_source`` returns ``converters.Diagnostic`` objects sorted by (line,
col, code); ``line`` and ``col`` are 1-based (``col`` counts characters).
``select``/``ignore`` hold codes or code prefixes (``"AG1"``). ``staged``
names extra functions, by qualname (``"Model.__call__"``) or glob
(``"*.call"``), to check as staged.
A line with ``# noqa`` (all codes) or ``# noqa: AG101,AG2`` is not reported.
A syntax error raises ``converters.ConversionError``.

It uses the standard library's ``ast`` (one parse, no libcst tree): the
checker runs in pre-commit hooks, where speed matters. The facts it reasons
with (module names and staged functions, scopes, which names can hold
tensors, what makes the converter leave a function as it is) come from
``converters.analysis``, the converter's own analysis; this package holds the
rules and their messages.
"""
from __future__ import annotations

import ast
import re
import warnings

from .._depth import too_deep
from .._result import ConversionError, Diagnostic
from ..analysis import TENSOR, UNKNOWN, Classifier, Scope, constructs, is_tf_qualname, module_classes, scan_module
from ..check._calls import IteratorEvidence, recursion_reports
from ..check._codes import CODES
from ..check._effects import Effects
from ..check._flow import Flow

__all__ = ["check_source", "CODES"]

_NOQA = re.compile(r"#\s*noqa\b(?::\s*(?P<codes>[A-Za-z]+[0-9]*(?:\s*,\s*[A-Za-z]+[0-9]*)*))?", re.IGNORECASE)


def _matches(code: str, patterns) -> bool:
    return any(code.startswith(p) for p in patterns)


def check_source(source: str, filename: str, *, select: set[str] | None = None,
                 ignore: set[str] | None = None, staged: set[str] | None = None) -> list[Diagnostic]:
    """Check one module's source; see the module docstring."""
    if source.startswith("\ufeff"):  # a UTF-8 byte-order mark read as text
        source = source[1:]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes etc.: a compiler's business, not ours
            tree = ast.parse(source, filename=filename)
    except SyntaxError as e:
        line = e.lineno or 1
        col = e.offset or 1
        raise ConversionError(filename, line, max(col, 1), f"syntax error: {e.msg}") from None
    except (RecursionError, MemoryError):
        raise ConversionError(filename, 1, 1, "the code is nested too deeply to parse") from None
    except ValueError as e:  # e.g. "source code string cannot contain null bytes"
        raise ConversionError(filename, 1, 1, str(e)) from None
    if too_deep(tree, source=source):
        raise ConversionError(filename, 1, 1, "the code is nested too deeply to parse")
    if not staged and "function" not in source:
        return []  # nothing can be staged: no decorator, no `tf.function(f)`
    lines = source.splitlines()
    raw: list[tuple[int, int, str, str]] = []

    def report(node: ast.AST, code: str, message: str) -> None:
        raw.append((node.lineno, node.col_offset, code, message))

    try:
        _check_tree(tree, frozenset(staged or ()), report)
    except RecursionError:
        raise ConversionError(filename, 1, 1, "the code is nested too deeply to check") from None

    out: dict[tuple[int, int, str, str], Diagnostic] = {}
    for line, byte_col, code, message in raw:
        if select is not None and not _matches(code, select):
            continue
        if ignore and _matches(code, ignore):
            continue
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if "noqa" in text or "NOQA" in text:
            m = _NOQA.search(text)
            if m is not None:
                codes = m.group("codes")
                if codes is None or _matches(code, [c.strip().upper() for c in codes.split(",")]):
                    continue
        col = byte_col + 1
        if not text.isascii():
            col = len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace")) + 1
        key = (line, col, code, message)
        out[key] = Diagnostic(filename, line, col, code, message)
    return [out[k] for k in sorted(out)]


def _check_tree(tree: ast.Module, staged: frozenset[str], report) -> None:
    module = scan_module(tree, staged)
    if not any(fi.staged for fi in module.functions):
        return
    mclasses = module_classes(module)
    mclassify = Classifier(lambda n: mclasses.get(n, UNKNOWN), module.qualify, is_tf_qualname,
                           lambda n: n in module.bound)
    evidence = IteratorEvidence(module, mclassify)
    staged_calls = []
    for fi in module.functions:
        if not fi.staged:
            continue
        scope = Scope(fi, module, mclasses)
        _unconvertible_reports(scope, report)
        Flow(scope, report).run()
        effects = Effects(scope, module, report, evidence)
        effects.run()
        staged_calls.append((fi, effects.calls))
        if module.rebinds:
            _rebound_global_reads(scope, module, mclassify, report)
    recursion_reports(staged_calls, report)


def _unconvertible_reports(scope: Scope, report) -> None:
    """AG401-AG404: what makes the converter leave the function as it is
    (the converter's own answer: ``analysis.constructs``)."""
    name = scope.node.name
    yielded = False
    for c in constructs(scope.node, scope.shadowed):
        node = c.node
        if c.kind == "async":
            report(node, "AG404", (
                f"'{name}' is an `async` function, which the converter leaves unconverted and a staged "
                f"function cannot express; make it a plain `def`."))
        elif c.kind == "yield" and not yielded:
            yielded = True
            report(node, "AG401", (
                f"`yield` makes '{name}' a generator, which the converter leaves unconverted and a "
                f"staged function cannot express; return the values (stacked, or in a `tf.TensorArray`) "
                f"instead."))
        elif c.kind == "locals":
            report(node, "AG402", (
                f"`{node.func.id}()` needs the function's real local variables, so the converter leaves "
                f"'{name}' unconverted; pass the values explicitly instead."))
        elif c.kind == "finally":
            kind = type(node).__name__.lower()
            report(node, "AG403", (
                f"`{kind}` inside `finally` makes the converter leave '{name}' unconverted, so its "
                f"control flow cannot be staged; move the `{kind}` out of the `finally` block."))
        # (`import *`, `await` and `async for` in a plain def: Python's compiler rejects them)


def _rebound_global_reads(scope: Scope, module, mclassify, report) -> None:
    """AG205: a staged function reads a plain Python global the module rebinds."""
    reads = sorted((n for n in scope.nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                    and n.id in module.rebinds), key=lambda n: (n.lineno, n.col_offset))
    seen: set[str] = set()
    for n in reads:
        name = n.id
        if (name in seen or name in scope.locals or name in scope.comp_names or name in scope.globals
                or name in scope.nonlocals or name in module.aliases):
            continue
        values = module.top_values.get(name)
        if not values or any(v is not None and mclassify(v) == TENSOR for v in values):
            continue  # no module-level value, or a tensor/Variable: tracked by the graph
        seen.add(name)
        report(n, "AG205", (
            f"'{name}' is a Python global that the module rebinds (line {module.rebinds[name]}), but a staged "
            f"function keeps the value it had when it was traced; pass '{name}' as an argument, or keep it in a "
            f"`tf.Variable`."))

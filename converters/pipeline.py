"""The pipeline: parse once, convert every function, print once.

It owns the walk over the module: converters never walk the module
themselves. Functions anywhere (module level, classes, under module-level
``if``/``try``) are converted; every statement after the first changed one in
a block gets a line anchor, so the line map stays exact.
"""
from __future__ import annotations

import ast

import libcst as cst

from converters import _nodes as n
from converters._result import ConversionError, ConversionResult
from converters.functions import BlockWalker, ModuleState
from converters.jumps import block_statements
from converters.lines import LineTableMismatch, statement_lines, strip_anchors


def _parse(source: str, filename: str):
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as e:
        raise ConversionError(filename, e.lineno or 1, e.offset or 1, e.msg) from None
    except (RecursionError, MemoryError):
        raise ConversionError(filename, 1, 1, "code is nested too deeply to parse") from None
    except ValueError as e:  # null bytes
        raise ConversionError(filename, 1, 1, str(e)) from None
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as e:
        raise ConversionError(filename, e.raw_line, e.raw_column + 1, e.message) from None
    except (RecursionError, MemoryError):
        raise ConversionError(filename, 1, 1, "code is nested too deeply to parse") from None
    return tree, module


def _def_columns(tree) -> list:
    cols = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            cols.append((node.lineno, node.col_offset + 1))
    return cols


def _find(stmts, parts):
    for stmt in stmts:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) and stmt.name.value == parts[0]:
            if len(parts) == 1:
                return stmt
            if isinstance(stmt, cst.ClassDef):
                return _find(block_statements(stmt.body), parts[1:])
    return None


def convert(
    source: str,
    *,
    filename: str = "<string>",
    fast_path: bool = True,
    function: str | None = None,
    strip_decorators: bool = False,
    first_line: int = 1,
) -> ConversionResult:
    """Convert every function in ``source``.

    ``fast_path`` keeps each function's own statements behind its functional
    form (what runs); without it the output is the functional form alone
    (what ``to-code`` shows). ``function`` (a qualname such as
    ``Model.call``) limits the output to that function.
    """
    tree, module = _parse(source, filename)
    try:
        lines = statement_lines(module, tree)
    except LineTableMismatch:
        lines = _lines_from_positions(module)
    if first_line != 1:
        shift = first_line - 1
        lines = {k: v + shift for k, v in lines.items()}
    cols = {}
    col_by_line = {line + first_line - 1: col for line, col in _def_columns(tree)}
    for node, line in lines.items():
        if isinstance(node, cst.FunctionDef):
            cols[node] = col_by_line.get(line, 1)
    state = ModuleState(source, lines, cols)
    body = BlockWalker(state, fast_path).block(list(module.body), "")
    new_module = module if body is module.body else module.with_changes(body=body)
    if function is not None:
        node = _find(body, function.split("."))
        if node is None:
            raise ConversionError(filename, 1, 1, f"no function named {function!r}")
        wanted = {r for r in state.report if r.qualname == function or r.qualname.startswith(function + ".")}
        state.report[:] = [r for r in state.report if r in wanted]
        original = _find(list(module.body), function.split("."))
        line = lines.get(original, 1)
        if strip_decorators and node.decorators:
            node = node.with_changes(decorators=[])
            line = lines.get((original, "def"), line)
        text = new_module.code_for_node(node.with_changes(leading_lines=[]))
        text = f"#{n.MARK}{line}\n" + text
    else:
        text = new_module.code
        if first_line != 1:
            text = f"#{n.MARK}{first_line}\n" + text
    code, line_map = strip_anchors(text)
    return ConversionResult(filename=filename, code=code, line_map=line_map, report=list(state.report))


def _lines_from_positions(module):
    from libcst.metadata import MetadataWrapper, PositionProvider

    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    return {
        node: pos.start.line
        for node, pos in positions.items()
        if isinstance(node, (cst.BaseCompoundStatement, cst.SimpleStatementLine, cst.BaseSmallStatement))
    }

"""The pipeline: parse once, convert every function, print once.

The passes, in order:

1. ``_parse``: ``ast.parse`` (syntax errors with their location, the depth
   guard) and ``libcst.parse_module``; ``lines.statement_lines`` pairs the
   two trees: every libcst statement's line, every function's column and
   last line.
2. ``functions.transform`` walks the module (module level, classes,
   module-level ``if``/``try``/``with``; ``ModuleFacts`` in, ``ModuleOutput``
   out) and hands each function to ``functions.convert_function``, the
   function's driver, which runs these passes in order (each one public
   ``transform`` whose declared inputs and result are dataclasses):
   a. ``analysis.analyze_function``: the facts of every statement (names
      read, bound, killed; yields, returns, jumps) and, from the function's
      ``ast`` node (``analysis.ConverterView``, the same code ``check``
      reports from), what makes it unconvertible -- computed once, read by
      every pass below
      through the node table (``tables.NodeTable``, which each pass extends
      with the statements it makes);
   b. ``jumps.transform``: ``break``/``continue``/``return`` inside control
      flow become flags and guards;
   c. ``statements.transform``: each simple statement through
      ``asserts.transform`` then ``lists.transform``;
   d. ``control_flow.transform``: ``if``/``while``/``for`` become helper
      functions and ``ag__`` calls (backwards, for liveness); what it keeps
      goes through ``expressions.rewriter``; nested functions go back to
      the driver;
   e. the dual form: the functional form behind ``if not ag__.fast:``,
      then the user's statements copied from the source text
      (``_nodes.Verbatim``); or, lazily, a stub and a module-level def for
      the table of functional forms.
3. The prologue (the operators' binding, the lazy table) after the
   docstring and ``__future__`` imports.
4. One print of the module (``_emit.module_code``: libcst's text, printed
   faster); ``lines.strip_anchors`` reads the line map off
   the anchor comments (every statement after the first changed one in a
   block is anchored, so the map stays exact).

Converters never walk the module themselves.
"""
from __future__ import annotations

import ast
import gc
import re
import threading
import warnings
import zlib

import libcst as cst

from ._depth import too_deep

from . import _emit
from . import _nodes as n
from ._result import ConversionError, ConversionResult
from .analysis import ConverterView
from . import functions
from .tables import block_statements
from .lines import LineTableMismatch, statement_lines, strip_anchors


def compile_error(source: str, filename: str) -> ConversionError | None:
    """The error Python's compiler finds in ``source`` beyond the parser's
    (``break`` outside a loop, ``nonlocal`` without a binding, a repeated
    parameter ...), located; None when it compiles."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes etc.: not ours to report
            compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as e:
        return ConversionError(filename, e.lineno or 1, e.offset or 1, f"syntax error: {e.msg}")
    except (ValueError, RecursionError, MemoryError):
        return None  # reported by the parsers, located
    return None


def _parse(source: str, filename: str):
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as e:
        raise ConversionError(filename, e.lineno or 1, e.offset or 1, f"syntax error: {e.msg}") from None
    except (RecursionError, MemoryError):
        raise ConversionError(filename, 1, 1, "code is nested too deeply to parse") from None
    except ValueError as e:  # null bytes
        raise ConversionError(filename, 1, 1, str(e)) from None
    if too_deep(tree, source=source):
        # libcst's native parser overflows its stack (a crash, not an
        # exception) on code Python itself may accept (3.10, 3.13)
        raise ConversionError(filename, 1, 1, "code is nested too deeply to parse")
    try:
        module = _parse_unvalidated(source)
    except cst.ParserSyntaxError as e:
        raise ConversionError(filename, e.raw_line, e.raw_column + 1, f"syntax error: {e.message}") from None
    except (RecursionError, MemoryError):
        raise ConversionError(filename, 1, 1, "code is nested too deeply to parse") from None
    return tree, module


_PARSE_LOCK = threading.Lock()
_PARSER_INITS: dict | None = None  # node class -> its initializer without validation (made on first use)


def _parse_unvalidated(source: str) -> cst.Module:
    """``libcst.parse_module(source)`` without libcst validating each node
    its parser builds (``CSTNode.__post_init__``) and with the fields set
    through the slots' setters (``_nodes.parser_initializers``): a quarter
    of the parse. The parser's nodes are valid by construction (libcst's
    own note there suggests the same). The node classes' ``__init__`` are
    swapped for the parse only, under a lock; AUTOGRAPH_STRICT_NODES keeps
    libcst's own."""
    global _PARSER_INITS
    if n.STRICT:
        return cst.parse_module(source)
    with _PARSE_LOCK:
        if _PARSER_INITS is None:
            _PARSER_INITS = n.parser_initializers()
        saved = []
        try:
            for t, init in _PARSER_INITS.items():
                saved.append((t, t.__dict__["__init__"]))
                t.__init__ = init
            return cst.parse_module(source)
        finally:
            for t, init in saved:
                t.__init__ = init


def _def_spans(tree) -> list:
    """(first line, column of ``def``, last line) of every function; the
    first line is the first decorator's, as in the statement line table."""
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans.append((first, node.col_offset + 1, node.end_lineno or node.lineno))
    return spans


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
    lazy: bool = False,
    mangle_class: str | None = None,
    bind: str | None = None,
    lazy_defs: bool = False,
) -> ConversionResult:
    """Convert every function in ``source``.

    ``fast_path`` keeps each function's own statements behind its functional
    form (what runs); without it the output is the functional form alone
    (what ``to-code`` shows). ``function`` (a qualname such as
    ``Model.call``) limits the output to that function. ``bind`` (a
    statement, e.g. ``from autograph_cli import operators as ag__``) goes
    after the docstring and ``__future__`` imports when anything was
    converted, so that the module runs on its own. ``lazy`` moves each
    functional form out of its function (whose locals then stay plain fast
    locals, not closure cells): into a packed table compiled on first use
    (the import hook), or, with ``lazy_defs`` (files written to disk), into
    plain module-level defs printed before the statement defining the
    function.
    """
    # The converter allocates millions of short-lived, acyclic objects (the
    # trees): with the cyclic collector on, each collection rescans the
    # growing heap and conversion time grows faster than the file (2x slower
    # at 20,000 lines). Reference counting frees them all the same.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _convert(source, filename, fast_path, function, strip_decorators, first_line, lazy, mangle_class, bind,
                        lazy_defs)
    finally:
        if enabled:
            gc.enable()


def _convert(source, filename, fast_path, function, strip_decorators, first_line, lazy, mangle_class, bind,
             lazy_defs=False):
    tree, module = _parse(source, filename)
    spans: dict | None = {}
    defs: dict | None = {}
    last_lines: dict = {}
    try:
        lines = statement_lines(module, tree, spans, defs, last_lines)
    except LineTableMismatch:
        lines = _lines_from_positions(module)
        spans = defs = None
        last_lines = {}
    shift = first_line - 1
    if shift:
        lines = {k: v + shift for k, v in lines.items()}
        last_lines = {k: v + shift for k, v in last_lines.items()}
    cols, ends = {}, {}
    if spans is not None:
        for node, (col, end) in spans.items():
            cols[node], ends[node] = col, end + shift
    else:
        by_line = {line + shift: (col, end + shift) for line, col, end in _def_spans(tree)}
        for node, line in lines.items():
            if isinstance(node, cst.FunctionDef) and line in by_line:
                cols[node], ends[node] = by_line[line]
    lazy = lazy and fast_path
    facts = functions.ModuleFacts(
        source, lines, cols, ends, first_line, module.default_newline,
        # the fast path is copied from the source unless one function is
        # printed alone (re-indented, perhaps mangled)
        verbatim=function is None,
        # One function alone: its functional form is a def printed before it (a
        # separate function, so the user's locals stay fast locals, not cells).
        functional_by_name=lazy and function is not None,
        # Files written to disk: the functional forms as plain defs.
        functional_inline=lazy and lazy_defs and function is None,
        syntax=ConverterView(source, tree, defs), last_lines=last_lines,
    )
    stmts = list(module.body)
    out = functions.transform(stmts, facts, fast_path, lazy)
    body = out.body
    report = out.report
    changed = body is not stmts  # (the walker returns its input when nothing changed)
    prologue = []
    if bind and changed and function is None:
        prologue.append(cst.parse_statement(bind + "\n"))
    if out.functional_defs and function is None:
        prologue.append(_functional_table(module, out.functional_defs, out.functional_keys, facts.identifiers))
    elif facts.functional_inline and out.functional_keys:
        # The defs are in the module: what the operators need besides is the
        # names the converter made up (see ``_functional_table``).
        names = ",".join(sorted(set().union(*out.made_names)))
        prologue.append(n.line(cst.Assign(targets=[cst.AssignTarget(n.name("__autograph_functional__"))],
                                          value=cst.SimpleString(repr(names)))))
    if prologue:
        body = _with_prologue(body, prologue, lines)
        changed = True
    new_module = module.with_changes(body=body) if changed else module
    if function is not None:
        node = _find(body, function.split("."))
        if node is None:
            raise ConversionError(filename, 1, 1, f"no function named {function!r}")
        report = [r for r in report if r.qualname == function or r.qualname.startswith(function + ".")]
        original = _find(list(module.body), function.split("."))
        line = lines.get(original, 1)
        if strip_decorators and node.decorators:
            node = node.with_changes(decorators=[])
            line = lines.get((original, "def"), line)
        if mangle_class:
            node = node.with_changes(params=functions.mangle(node.params, mangle_class),
                                     body=functions.mangle(node.body, mangle_class))
        text = _emit.code_for_node(new_module, node.with_changes(leading_lines=[]))
        text = f"#{n.MARK}{line}\n" + text
        own = [d for d, k in zip(out.functional_defs, out.functional_keys)
               if k.rpartition("@")[0] == function or k.startswith(function + ".")]
        if own:
            if mangle_class:
                own = [functions.mangle(d, mangle_class) for d in own]
            text = _emit.module_code(module.with_changes(body=own, header=[], footer=[])) + text
    else:
        text = _emit.module_code(new_module)
        if first_line != 1:
            text = f"#{n.MARK}{first_line}\n" + text
    code, line_map = strip_anchors(text)
    return ConversionResult(filename=filename, code=code, line_map=line_map, report=list(report))


def _with_prologue(body, prologue, lines):
    """Insert ``prologue`` (the operators' binding, the table of functional
    forms) before the first statement that could call a function (after the
    docstring and __future__ imports), so that it exists while the module
    body runs; the statements after it are anchored."""
    k = 0
    while k < len(body):
        stmt = body[k]
        if not isinstance(stmt, cst.SimpleStatementLine):
            break
        small = stmt.body[0]
        is_doc = k == 0 and isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString))
        is_future = isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and small.module.value == "__future__"
        if not (is_doc or is_future):
            break
        k += 1
    rest = []
    for stmt in body[k:]:
        line = lines.get(stmt)
        rest.append(n.anchored(stmt, line) if line is not None else stmt)
    # The prologue reports the line of the statement before it (or, first in
    # the module, the one after it): no line of its own appears in tracing
    # or coverage.
    near = [lines.get(s) for s in (body[k - 1:k] if k else body[:1])]
    line = near[0] if near and near[0] is not None else 1
    return [*body[:k], *(n.anchored(p, line) for p in prologue), *rest]


def _functional_table(module, defs, keys, identifiers):
    """``__autograph_functional__ = <bytes>`` for lazy mode: the functional
    forms' source, their line map, their keys (``qualname@line``, one per
    definition) and the names the converter made up (the helpers' names:
    none is a name of the user's), NUL-separated and zlib-compressed (it is
    unpacked only when a trace first needs it, and a small constant keeps
    the cached module as quick to load as the original)."""
    text = _emit.module_code(module.with_changes(body=defs, header=[], footer=[]))
    code, line_map = strip_anchors(text)
    generated = sorted(generated_names(code, identifiers))
    payload = "\0".join([code, ",".join(map(str, line_map)), ",".join(keys), ",".join(generated)]).encode("utf-8")
    value = cst.SimpleString(repr(zlib.compress(payload, 6)))
    return n.line(cst.Assign(targets=[cst.AssignTarget(n.name("__autograph_functional__"))], value=value))


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def generated_names(code: str, identifiers) -> set:
    """The identifiers of converted ``code`` that the user's source (whose
    identifiers are ``identifiers``) never spells: the names the converter
    made up (its fresh names avoid every identifier of the source; names
    mangled for a class, ``_K__x``, are the user's)."""
    return {x for x in set(_IDENTIFIER.findall(code)) - set(identifiers) if "__" not in x.rstrip("_")}


def _lines_from_positions(module):
    from libcst.metadata import MetadataWrapper, PositionProvider

    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    return {
        node: pos.start.line
        for node, pos in positions.items()
        if isinstance(node, (cst.BaseCompoundStatement, cst.SimpleStatementLine, cst.BaseSmallStatement))
    }

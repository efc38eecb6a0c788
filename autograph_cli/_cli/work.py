"""One file's work (convert it, check it) and running many in processes.

Job functions take plain data and return a result dataclass (picklable: it
crosses process boundaries) and never raise: every failure comes back as one
located line in ``result.error``.
"""
from __future__ import annotations

import enum
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from autograph_cli._cli.files import SourceError, read_source
from autograph_cli._converters import load as load_converters
from autograph_cli._converters import load_check

if TYPE_CHECKING:
    from converters import Diagnostic, FunctionReport

__all__ = [
    "BIND_OPERATORS", "CheckResult", "ConvertResult", "Outcome", "bind_operators", "check_job", "convert_job",
    "run_jobs",
]


class Outcome(str, enum.Enum):
    """What `autograph convert` did with one file (the JSON report's ``status``)."""

    ERROR = "error"
    WRITTEN = "written"
    UNCHANGED = "unchanged"
    WOULD_CHANGE = "would_change"
    PRINTED = "printed"  # stdin, converted to stdout


@dataclass
class ConvertResult:
    """One file converted: the code, or the one located line saying why not."""

    path: str
    error: str | None = None
    code: str | None = None
    original: str | None = None
    encoding: str = "utf-8"
    data: bytes = b""
    #: the converter's per-function reports (converters.FunctionReport)
    report: list[FunctionReport] = field(default_factory=list)
    outcome: Outcome | None = None

    @property
    def left(self) -> list[FunctionReport]:
        """The functions left as they are."""
        return [r for r in self.report if not r.converted]


@dataclass
class CheckResult:
    """One file checked: its diagnostics, or the one located line saying why not."""

    path: str
    error: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


JobResult = Union[ConvertResult, CheckResult]

#: The line a converted file written to disk needs to run on its own.
BIND_OPERATORS = "from autograph_cli import operators as ag__"


def bind_operators(code: str) -> str:
    """Make a converted module importable without the hook: bind ``ag__``
    right after the docstring and ``from __future__`` imports (once)."""
    if "ag__" not in code:
        return code
    import ast

    tree = ast.parse(code)
    after = 0
    for i, stmt in enumerate(tree.body):
        if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            after = stmt.end_lineno or stmt.lineno
            continue
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            after = stmt.end_lineno or stmt.lineno
            continue
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "autograph_cli" and any(
            a.name == "operators" and a.asname == "ag__" for a in stmt.names
        ):
            return code
        if isinstance(stmt, ast.Import) and any(a.name == "autograph_cli.operators" and a.asname == "ag__" for a in stmt.names):
            return code
        break
    lines = code.splitlines(keepends=True)
    # Below the comment lines heading the file: a #! line must stay first and
    # a coding declaration within the first two lines.
    lead = 0
    while lead < len(lines) and (not lines[lead].strip() or lines[lead].lstrip().startswith("#")):
        lead += 1
    after = max(after, lead)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    if after and not lines[after - 1].endswith(("\n", "\r")):
        lines[after - 1] += newline
    lines.insert(after, BIND_OPERATORS + newline)
    return "".join(lines)


def _located(e: BaseException, path: str) -> str:
    return f"{path}:1:1: {type(e).__name__}: {e}"


def convert_job(path: str, options: dict[str, Any]) -> ConvertResult:
    """Convert one file. ``options``: fast_path, function, bind, text (for stdin)."""
    result = ConvertResult(path)
    try:
        if "text" in options:
            text, encoding, data = options["text"], options.get("encoding", "utf-8"), options.get("data", b"")
        else:
            src = read_source(path)
            text, encoding, data = src.text, src.encoding, src.data
        result.original, result.encoding, result.data = text, encoding, data
        converters = load_converters()

        try:
            fast = options.get("fast_path", True)
            # A file's functions keep their statements as plain fast locals:
            # each functional form is a def of its own beside it (lazy_defs).
            lazy = fast and options.get("function") is None
            conv = converters.convert(text, filename=path, fast_path=fast, function=options.get("function"),
                                      lazy=lazy, lazy_defs=lazy,
                                      bind=BIND_OPERATORS if lazy and options.get("bind", False) else None)
        except converters.ConversionError as e:
            result.error = str(e)
            return result
        except (RecursionError, MemoryError) as e:
            result.error = f"{path}:1:1: code is nested too deeply to convert ({type(e).__name__})"
            return result
        code = conv.code
        # The safety net: what we hand back must compile (the parser alone
        # would miss errors such as a `break` moved out of its loop).
        try:
            if options.get("bind", False):
                code = bind_operators(code)
            compile(code, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
            user_error = converters.compile_error(text, path)
            if user_error is not None:  # the user's code does not compile either: say where
                result.error = str(user_error)
                return result
            line = getattr(e, "lineno", None) or 1
            # (bind_operators may have added one line at the top)
            shift = 1 if code is not conv.code and code.count("\n") > conv.code.count("\n") else 0
            original = conv.original_line(max(1, line - shift)) if line else 1
            result.error = (f"{path}:{original}:1: internal error: the converted code does not compile "
                               f"({getattr(e, 'msg', e)}); file left as it was")
            return result
        result.code = code
        result.report = list(conv.report)
    except SourceError as e:
        result.error = str(e)
    except Exception as e:  # a bug of ours (unless the code does not compile): still one line
        result.error = _unexpected(e, path, result.original)
    return result


def _unexpected(e: Exception, path: str, text: str | None) -> str:
    """The line for an unexpected failure: the user's own compile error when
    the code does not compile, else an internal error of ours."""
    if text is not None:
        user_error = load_converters().compile_error(text, path)
        if user_error is not None:
            return str(user_error)
    return f"{path}:1:1: internal error: {type(e).__name__}: {e}"


def check_job(path: str, options: dict[str, Any]) -> CheckResult:
    """Check one file. ``options``: select, ignore, staged, text (for stdin)."""
    result = CheckResult(path)
    text = None
    try:
        if "text" in options:
            text = options["text"]
        else:
            text = read_source(path).text
        converters = load_converters()
        check_source = load_check().check_source

        try:
            diags = check_source(text, path, select=options.get("select"), ignore=options.get("ignore"),
                                 staged=options.get("staged"))
        except converters.ConversionError as e:
            result.error = str(e)
            return result
        except (RecursionError, MemoryError) as e:
            result.error = f"{path}:1:1: code is nested too deeply to check ({type(e).__name__})"
            return result
        user_error = converters.compile_error(text, path)
        if user_error is not None:  # beyond the parser: `break` outside a loop, say
            result.error = str(user_error)
            return result
        result.diagnostics = list(diags)
    except SourceError as e:
        result.error = str(e)
    except Exception as e:
        result.error = _unexpected(e, path, text)
    return result


def _pool(workers: int):
    import concurrent.futures
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods and sys.platform != "darwin" else None)
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx)


def run_jobs(job: Callable[[str, dict[str, Any]], JobResult], items: list[str], options: dict[str, Any], jobs: int,
             progress: Any = None) -> list[Any]:
    """Run ``job(path, options)`` for every path; results in input order.

    With ``jobs > 1`` the work goes to a process pool (forked after the
    converters are imported, so workers start warm); if no pool can be made
    the work runs here. A worker that dies takes only its own file with it.
    """
    load_converters()  # imported once, before forking
    if job is check_job:
        load_check()
    failed = CheckResult if job is check_job else ConvertResult
    results: list[Any] = [None] * len(items)
    workers = min(jobs, len(items))
    pool = None
    if workers > 1:
        try:
            pool = _pool(workers)
        except (OSError, ImportError, NotImplementedError, ValueError):
            pool = None
    if pool is None:
        for i, path in enumerate(items):
            results[i] = job(path, options)
            if progress is not None:
                progress.advance()
        return results
    import concurrent.futures

    with pool:
        futures = {pool.submit(job, path, options): i for i, path in enumerate(items)}
        for fut in concurrent.futures.as_completed(futures):
            i = futures[fut]
            try:
                results[i] = fut.result()
            except Exception as e:  # BrokenProcessPool: the worker died
                results[i] = failed(items[i], error=f"{items[i]}:1:1: internal error: worker failed ({type(e).__name__})")
            if progress is not None:
                progress.advance()
    return results

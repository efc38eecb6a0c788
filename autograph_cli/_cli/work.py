"""One file's work (convert it, check it) and running many in processes.

Job functions take and return plain data (picklable) and never raise: every
failure comes back as one located line in ``result["error"]``.
"""
from __future__ import annotations

import sys

from autograph_cli._cli.files import SourceError, read_source
from autograph_cli._converters import load as load_converters
from autograph_cli._converters import load_check

__all__ = ["BIND_OPERATORS", "bind_operators", "check_job", "convert_job", "run_jobs"]

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
            after = stmt.end_lineno
            continue
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            after = stmt.end_lineno
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


def convert_job(path: str, options: dict) -> dict:
    """Convert one file. ``options``: fast_path, function, bind, text (for stdin)."""
    result = {"path": path, "error": None, "code": None, "original": None, "encoding": "utf-8",
              "data": b"", "report": [], "unconverted": 0}
    try:
        if "text" in options:
            text, encoding, data = options["text"], options.get("encoding", "utf-8"), options.get("data", b"")
        else:
            src = read_source(path)
            text, encoding, data = src.text, src.encoding, src.data
        result.update(original=text, encoding=encoding, data=data)
        converters = load_converters()

        try:
            conv = converters.convert(text, filename=path, fast_path=options.get("fast_path", True),
                                      function=options.get("function"))
        except converters.ConversionError as e:
            result["error"] = str(e)
            return result
        except (RecursionError, MemoryError) as e:
            result["error"] = f"{path}:1:1: code is nested too deeply to convert ({type(e).__name__})"
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
                result["error"] = str(user_error)
                return result
            line = getattr(e, "lineno", None) or 1
            # (bind_operators may have added one line at the top)
            shift = 1 if code is not conv.code and code.count("\n") > conv.code.count("\n") else 0
            original = conv.original_line(max(1, line - shift)) if line else 1
            result["error"] = (f"{path}:{original}:1: internal error: the converted code does not compile "
                               f"({getattr(e, 'msg', e)}); file left as it was")
            return result
        result["code"] = code
        result["report"] = [r.to_dict() for r in conv.report]
        result["unconverted"] = len(conv.unconverted())
    except SourceError as e:
        result["error"] = str(e)
    except Exception as e:  # a bug of ours (unless the code does not compile): still one line
        result["error"] = _unexpected(e, path, result.get("original"))
    return result


def _unexpected(e: Exception, path: str, text: str | None) -> str:
    """The line for an unexpected failure: the user's own compile error when
    the code does not compile, else an internal error of ours."""
    if text is not None:
        user_error = load_converters().compile_error(text, path)
        if user_error is not None:
            return str(user_error)
    return f"{path}:1:1: internal error: {type(e).__name__}: {e}"


def check_job(path: str, options: dict) -> dict:
    result = {"path": path, "error": None, "diagnostics": []}
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
            result["error"] = str(e)
            return result
        except (RecursionError, MemoryError) as e:
            result["error"] = f"{path}:1:1: code is nested too deeply to check ({type(e).__name__})"
            return result
        user_error = converters.compile_error(text, path)
        if user_error is not None:  # beyond the parser: `break` outside a loop, say
            result["error"] = str(user_error)
            return result
        result["diagnostics"] = [d.to_dict() | {"text": str(d)} for d in diags]
    except SourceError as e:
        result["error"] = str(e)
    except Exception as e:
        result["error"] = _unexpected(e, path, text)
    return result


def _pool(workers: int):
    import concurrent.futures
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods and sys.platform != "darwin" else None)
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx)


def run_jobs(job, items: list, options: dict, jobs: int, progress=None) -> list[dict]:
    """Run ``job(path, options)`` for every path; results in input order.

    With ``jobs > 1`` the work goes to a process pool (forked after the
    converters are imported, so workers start warm); if no pool can be made
    the work runs here. A worker that dies takes only its own file with it.
    """
    load_converters()  # imported once, before forking
    if job is check_job:
        load_check()
    results: list = [None] * len(items)
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
                results[i] = {"path": items[i], "error": f"{items[i]}:1:1: internal error: worker failed ({type(e).__name__})",
                              "code": None, "report": [], "unconverted": 0, "diagnostics": []}
            if progress is not None:
                progress.advance()
    return results

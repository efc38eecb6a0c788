"""Python API: ``to_code``, ``to_graph``, ``do_not_convert``, and compiling
converted code so that tracebacks name the user's file and lines."""
from __future__ import annotations

import ast
import inspect
import linecache
import textwrap
import threading
import types
import warnings
import weakref

from autograph_cli import _converters, operators
from autograph_cli._lines import compile_mapped, split_lines
from autograph_cli.operators import do_not_convert

converters = _converters.load()

__all__ = ["to_code", "to_graph", "do_not_convert", "compile_result", "AutoGraphWarning"]

_FACTORY = "__autograph_factory__"


class AutoGraphWarning(UserWarning):
    """A function could not be converted and runs as written."""


def compile_lines(code: str, line_map, filename: str) -> types.CodeType:
    """Compile ``code`` so that generated line i reports original line
    ``line_map[i - 1]`` under ``filename`` (columns too, where the file's
    lines can be read)."""
    last = len(line_map)

    def line_of(i):
        return line_map[i - 1] if 1 <= i <= last else i

    return compile_mapped(code, filename, line_of, _file_lines(filename))


def _file_lines(filename: str):
    lines = linecache.getlines(filename)
    return [line.rstrip("\r\n") for line in lines] if lines else None


def compile_result(result: converters.ConversionResult, *, line_offset: int = 0,
                   original: str | None = None) -> types.CodeType:
    """Compile a converted module under the original file name and lines
    (and columns, given the ``original`` source text)."""
    line_map = result.line_map
    last = len(line_map)

    def line_of(i):
        return (line_map[i - 1] if 1 <= i <= last else i) + line_offset

    return compile_mapped(result.code, result.filename, line_of,
                          split_lines(original) if original is not None else None)


# -- functions ------------------------------------------------------------------

_cache_lock = threading.Lock()
# original code object -> (converted code object, report)
_code_cache: "weakref.WeakKeyDictionary[types.CodeType, tuple]" = weakref.WeakKeyDictionary()
_ag_cell = types.CellType(operators)


def _function_source(fn) -> tuple[str, int, str]:
    code = fn.__code__
    try:
        # The code object, not the function: functools.wraps points
        # inspect at the wrapped function instead.
        lines, start = inspect.getsourcelines(code)
    except (OSError, TypeError) as e:
        raise ValueError(f"source of {fn.__qualname__} is not available: {e}") from None
    return textwrap.dedent("".join(lines)), max(start, 1), code.co_filename


def _factory_code(result, code, name, start, filename):
    """Compile converted function source so that its code object has the same
    free variables as ``code`` (plus ``ag__``)."""
    freevars = [v for v in code.co_freevars if v != "ag__"]
    # The factory is never run: it only gives the converted function the same
    # free variables as the original. Its own name stays a global unless the
    # original closes over it.
    own = "" if name in freevars else f"    global {name}\n"
    header = f"def {_FACTORY}(ag__{''.join(', ' + v for v in freevars)}):\n{own}"
    body = textwrap.indent(result.code, "    ")
    factory_src = f"{header}{body}\n"
    line_map = result.line_map or [start]
    skip = 1 + (1 if own else 0)

    def line_of(i):
        j = i - 1 - skip if i > skip else 0
        return line_map[min(j, len(line_map) - 1)]

    factory_code = compile_mapped(factory_src, filename, line_of, _file_lines(filename))
    # The factory's code object holds the converted function's code object.
    fcode = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == _FACTORY)
    return next(c for c in fcode.co_consts if isinstance(c, types.CodeType) and c.co_name == name)


def _was_converted(result, name) -> bool:
    report = [r for r in result.report if r.qualname == name]
    return not report or (report[0].converted and report[0].reason not in ("nothing to convert", "already converted"))


def _owner_class(fn) -> str | None:
    """The name of the class a function was defined in, if any: its private
    names are mangled with it."""
    parts = fn.__qualname__.split(".")
    if len(parts) >= 2 and parts[-2] != "<locals>":
        return parts[-2]
    return None


def _convert_code(fn):
    code = fn.__code__
    with _cache_lock:
        hit = _code_cache.get(code)
    if hit is not None:
        return hit
    name = code.co_name
    if name == "<lambda>":
        return _convert_lambda(fn)
    source, start, filename = _function_source(fn)
    result = converters.convert(
        source,
        filename=filename,
        fast_path=True,
        function=name,
        strip_decorators=True,
        first_line=start,
        mangle_class=_owner_class(fn),
    )
    if not _was_converted(result, name):
        # Left as it is (and reported): the original function is the converted one.
        entry = (None, result.report)
        with _cache_lock:
            _code_cache[code] = entry
        return entry
    entry = (_factory_code(result, code, name, start, filename), result.report)
    with _cache_lock:
        _code_cache[code] = entry
    return entry


_LAMBDA = "__autograph_lambda__"


def _find_lambda(fn, source: str):
    """The libcst Lambda node in ``source`` that defined ``fn``."""
    import libcst as cst

    code = fn.__code__
    candidates = []
    for text in (source, f"(\n{source}\n)"):
        try:
            module = cst.parse_module(text)
        except Exception:
            continue

        class _Lambdas(cst.CSTVisitor):
            def visit_Lambda(self, node):
                candidates.append(node)

        module.visit(_Lambdas())
        break
    argnames = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    matching = []
    for node in candidates:
        p = node.params
        names = tuple(x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params))
        if names == argnames:
            matching.append(node)
    if len(matching) != 1:
        raise ValueError(f"cannot tell which lambda on line {code.co_firstlineno} to convert")
    return matching[0]


def _convert_lambda(fn):
    import libcst as cst

    code = fn.__code__
    source, start, filename = _function_source(fn)
    node = _find_lambda(fn, source)
    # A lambda is converted as the function it stands for; the result keeps
    # the lambda's name and line.
    params = cst.Module([]).code_for_node(node.params)
    body = cst.Module([]).code_for_node(node.body)
    text = f"def {_LAMBDA}({params}):\n    return ({body})\n"
    result = converters.convert(text, filename=filename, fast_path=True, function=_LAMBDA)
    if not _was_converted(result, _LAMBDA):
        entry = (None, result.report)
        with _cache_lock:
            _code_cache[code] = entry
        return entry
    result.line_map = [code.co_firstlineno] * len(result.line_map)
    inner = _factory_code(result, code, _LAMBDA, code.co_firstlineno, filename)
    inner = inner.replace(co_name="<lambda>", co_qualname=code.co_qualname) if hasattr(code, "co_qualname") else inner.replace(co_name="<lambda>")
    entry = (inner, result.report)
    with _cache_lock:
        _code_cache[code] = entry
    return entry


def _closure(code, cells: dict):
    return tuple(cells[n] if n in cells else types.CellType() for n in code.co_freevars) or None


def to_graph(fn):
    """Return the converted version of ``fn``.

    It shares ``fn``'s globals, closure cells and defaults. Outside a trace
    it runs ``fn``'s own statements; under a trace (or with
    ``operators.force_functional``) its functional form.
    """
    if isinstance(fn, types.MethodType):
        return types.MethodType(to_graph(fn.__func__), fn.__self__)
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"to_graph expects a Python function, got {type(fn).__name__}")
    code = fn.__code__
    if "ag__" in code.co_names or "ag__" in code.co_freevars:
        return fn
    # The dual form runs the functional form in the function's own frame, so
    # frame-sensitive code (warnings' stacklevel, recursion depth) is as
    # written; the cost is that captured locals are cells on the fast path.
    inner, _ = _convert_code(fn)
    if inner is None:
        return fn
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    cells["ag__"] = _ag_cell
    new = types.FunctionType(inner, fn.__globals__, fn.__name__, fn.__defaults__, _closure(inner, cells))
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__annotations__ = fn.__annotations__
    new.__dict__.update(fn.__dict__)
    new.__wrapped__ = fn
    return new


_warned: "weakref.WeakSet" = weakref.WeakSet()


def convert_for_call(fn):
    """``to_graph(fn)``, or ``fn`` itself (with one warning) when it cannot be converted."""
    try:
        return to_graph(fn)
    except (ValueError, converters.ConversionError) as e:
        code = fn.__code__
        if code not in _warned:
            _warned.add(code)
            if fn.__name__ != "<lambda>":
                warnings.warn(f"autograph could not convert {fn.__qualname__}; it runs as written ({e})", AutoGraphWarning, stacklevel=3)
        return fn


def to_code(obj, *, fast_path: bool = False) -> str:
    """The converted source of a function, or of a module's source text."""
    if isinstance(obj, str):
        return converters.convert(obj, fast_path=fast_path).code
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    fn = getattr(obj, "python_function", obj)
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"to_code expects a function or source text, got {type(obj).__name__}")
    source, start, filename = _function_source(fn)
    return converters.convert(
        source,
        filename=filename,
        fast_path=fast_path,
        function=fn.__code__.co_name,
        strip_decorators=True,
        first_line=start,
    ).code

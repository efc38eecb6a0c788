"""Python API: ``to_code``, ``to_graph``, ``do_not_convert``, and compiling
converted code so that tracebacks name the user's file and lines."""
from __future__ import annotations

import ast
import inspect
import textwrap
import threading
import types
import warnings
import weakref

import converters
from autograph_cli import operators
from autograph_cli.operators import do_not_convert

__all__ = ["to_code", "to_graph", "do_not_convert", "compile_result", "convert_source", "AutoGraphWarning"]

_FACTORY = "__autograph_factory__"


class AutoGraphWarning(UserWarning):
    """A function could not be converted and runs as written."""


def convert_source(source: str, filename: str = "<string>", *, fast_path: bool = True) -> converters.ConversionResult:
    return converters.convert(source, filename=filename, fast_path=fast_path)


def _mapped_tree(code: str, line_of) -> ast.Module:
    tree = ast.parse(code)
    for node in ast.walk(tree):
        lineno = getattr(node, "lineno", None)
        if lineno is None:
            continue
        start = line_of(lineno)
        node.lineno = start
        end = getattr(node, "end_lineno", None)
        if end is not None:
            node.end_lineno = max(start, line_of(end))
            if node.end_lineno != start or end != lineno:
                node.end_col_offset = max(node.end_col_offset or 0, node.col_offset) if node.end_lineno == start else node.end_col_offset
    return tree


def compile_result(result: converters.ConversionResult, *, line_offset: int = 0) -> types.CodeType:
    """Compile a converted module under the original file name and lines."""
    line_map = result.line_map
    last = len(line_map)

    def line_of(i):
        return (line_map[i - 1] if 1 <= i <= last else i) + line_offset

    return compile(_mapped_tree(result.code, line_of), result.filename, "exec", dont_inherit=True)


# -- functions ------------------------------------------------------------------

_cache_lock = threading.Lock()
# original code object -> (converted code object, report)
_code_cache: "weakref.WeakKeyDictionary[types.CodeType, tuple]" = weakref.WeakKeyDictionary()
_ag_cell = types.CellType(operators)


def _function_source(fn) -> tuple[str, int, str]:
    code = fn.__code__
    try:
        lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise ValueError(f"source of {fn.__qualname__} is not available: {e}") from None
    return textwrap.dedent("".join(lines)), max(start, 1), code.co_filename


def _convert_code(fn):
    code = fn.__code__
    with _cache_lock:
        hit = _code_cache.get(code)
    if hit is not None:
        return hit
    if fn.__name__ == "<lambda>":
        raise ValueError("lambdas are converted where they are defined, inside converted functions")
    source, start, filename = _function_source(fn)
    result = converters.convert(source, filename=filename, fast_path=True, function=fn.__name__, strip_decorators=True)
    report = [r for r in result.report if r.qualname == fn.__name__]
    if report and not report[0].converted:
        raise ValueError(f"{fn.__qualname__} is left as it is: {report[0].reason}")
    freevars = [v for v in code.co_freevars if v != "ag__"]
    header = f"def {_FACTORY}(ag__{''.join(', ' + v for v in freevars)}):\n"
    body = textwrap.indent(result.code, "    ")
    factory_src = f"{header}{body}\n    return {fn.__name__}\n"
    line_map = result.line_map
    first = (line_map[0] if line_map else 1) + start - 1

    def line_of(i):
        if i == 1:
            return first
        j = i - 2
        return (line_map[j] if 0 <= j < len(line_map) else line_map[-1] if line_map else 1) + start - 1

    factory_code = compile(_mapped_tree(factory_src, line_of), filename, "exec", dont_inherit=True)
    namespace: dict = {}
    # The factory's code object holds the converted function's code object.
    fcode = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == _FACTORY)
    inner = next(c for c in fcode.co_consts if isinstance(c, types.CodeType) and c.co_name == fn.__name__)
    entry = (inner, result.report)
    del namespace
    with _cache_lock:
        _code_cache[code] = entry
    return entry


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
    inner, _ = _convert_code(fn)
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    closure = []
    for name in inner.co_freevars:
        if name == "ag__":
            closure.append(_ag_cell)
        elif name in cells:
            closure.append(cells[name])
        else:
            closure.append(types.CellType())
    new = types.FunctionType(inner, fn.__globals__, fn.__name__, fn.__defaults__, tuple(closure) or None)
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
            if "is left as it is" not in str(e) and fn.__name__ != "<lambda>":
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
    source, _, filename = _function_source(fn)
    return converters.convert(source, filename=filename, fast_path=fast_path, function=fn.__name__, strip_decorators=True).code

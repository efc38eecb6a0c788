"""Python API: ``to_code``, ``to_graph``, ``do_not_convert``, and compiling
converted code so that tracebacks name the user's file and lines."""
from __future__ import annotations

import inspect
import linecache
import os
import re
import textwrap
import threading
import types
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

import autograph_cli
from autograph_cli import _converters, _logging, operators
from autograph_cli._lines import compile_mapped, future_flags, split_lines
from autograph_cli.operators import _calls, do_not_convert

if TYPE_CHECKING:
    from converters import ConversionResult

converters = _converters.load()
_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["to_code", "to_graph", "do_not_convert", "compile_result", "AutoGraphWarning"]

_FACTORY = "__autograph_factory__"
_FUNCTIONAL_PREFIX = "__ag_functional__"  # (converters.functions.functional_name)


class AutoGraphWarning(UserWarning):
    """A function could not be converted and runs as written."""


def compile_lines(code: str, line_map: Sequence[int], filename: str, flags: int = 0) -> types.CodeType:
    """Compile ``code`` so that generated line i reports original line
    ``line_map[i - 1]`` under ``filename`` (columns too, where the file's
    lines can be read), with the ``__future__`` features in ``flags``."""
    last = len(line_map)

    def line_of(i):
        return line_map[i - 1] if 1 <= i <= last else i

    return compile_mapped(code, filename, line_of, _file_lines(filename), flags)


def _file_lines(filename: str):
    lines = linecache.getlines(filename)
    return [line.rstrip("\r\n") for line in lines] if lines else None


def compile_result(result: ConversionResult, *, line_offset: int = 0,
                   original: str | None = None) -> types.CodeType:
    """Compile a converted module under the original file name and lines
    (and columns, given the ``original`` source text)."""
    line_map = result.line_map
    last = len(line_map)

    def line_of(i):
        return (line_map[i - 1] if 1 <= i <= last else i) + line_offset

    return compile_mapped(result.code, result.filename, line_of,
                          split_lines(original) if original is not None else None)


# -- names ----------------------------------------------------------------------

_HAS_QUALNAME = hasattr(types.CodeType, "co_qualname")  # 3.11+


def requalify(code: types.CodeType, renames: dict, generated, qualname: str = "",
              helpers: set | None = None) -> types.CodeType:
    """``code`` with the qualified names Python gives the user's objects.

    Converted code defines the user's functions and classes inside generated
    scopes: a functional form compiled as ``__ag_functional__f__3__`` or
    inside ``__autograph_factory__``, and helpers (``if_body_6`` ...). Every
    qualname in the tree (``co_qualname``, the strings a class body stores as
    ``__qualname__`` and, before 3.11, the ones ``MAKE_FUNCTION`` takes) is
    rewritten: a leading generated scope ``renames`` names (a tuple of
    segments) becomes the user's qualname, and each ``.<locals>.helper``
    whose helper is one of the ``generated`` names is dropped. A helper's own
    code takes the name of the function it belongs to, so that frames (in
    tracebacks, ``sys._getframe(1).f_code.co_name``) show the user's name.
    ``qualname`` is ``code``'s own (read from the code objects on 3.11+).
    The new code objects of the helpers and renamed scopes go into ``helpers``.
    """
    generated = frozenset(generated)
    heads = {prefix[0] for prefix in renames}

    def fix(q: str):
        if "<locals>" not in q and q.partition(".")[0] not in heads:
            return None
        parts = q.split(".")
        changed = False
        for prefix, new in renames.items():
            if tuple(parts[: len(prefix)]) == prefix:
                parts = new.split(".") + parts[len(prefix):]
                changed = True
                break
        out = []
        i = 0
        while i < len(parts):
            if parts[i] == "<locals>" and i + 1 < len(parts) and parts[i + 1] in generated:
                i += 2
                changed = True
                continue
            out.append(parts[i])
            i += 1
        return ".".join(out) if changed else None

    def walk(c: types.CodeType, qual: str):
        """(new code, its old qualname, its new qualname or None)."""
        old = getattr(c, "co_qualname") if _HAS_QUALNAME else qual  # (3.11+: not in 3.10's stubs)
        new = fix(old)
        is_class = not c.co_flags & 0x1  # no CO_OPTIMIZED: a class body (or a module)
        children = {}
        for k in c.co_consts:
            if isinstance(k, types.CodeType):
                sep = "." if is_class or not qual else ".<locals>."
                children[k] = walk(k, f"{qual}{sep}{k.co_name}" if qual else k.co_name)
        # The strings that are qualnames: a class body's own (it stores
        # __qualname__) and, before 3.11, those MAKE_FUNCTION takes (a child's).
        # No other string is touched (a user's "f" stays "f").
        names = {o: n for _, o, n in children.values() if n is not None}
        if is_class and new is not None:
            names[old] = new
        consts = []
        changed = False
        for k in c.co_consts:
            if isinstance(k, types.CodeType):
                nk = children[k][0]
            elif type(k) is str and k in names:
                nk = names[k]
            else:
                nk = k
            changed = changed or nk is not k
            consts.append(nk)
        kw: dict[str, Any] = {}
        if changed:
            kw["co_consts"] = tuple(consts)
        if new is not None:
            if _HAS_QUALNAME:
                kw["co_qualname"] = new
            last = new.rpartition(".")[2]
            if last != c.co_name and old.rpartition(".")[2] == c.co_name:
                kw["co_name"] = last
        out = c.replace(**kw) if kw else c
        if helpers is not None and (c.co_name in generated or c.co_name in heads):
            helpers.add(out)
        return out, old, new

    return walk(code, qualname)[0]


# -- functions ------------------------------------------------------------------

_cache_lock = threading.Lock()
# original code object -> (converted code object, report)
_code_cache: "weakref.WeakKeyDictionary[types.CodeType, tuple]" = weakref.WeakKeyDictionary()
_ag_cell = types.CellType(operators)


class UnsupportedLanguageElementError(NotImplementedError):
    """A construct autograph does not convert, under AUTOGRAPH_STRICT_CONVERSION."""


class SourceUnavailable(ValueError):
    """A function has no source to convert (built by ``exec``/``eval``, as
    ``namedtuple`` and ``dataclasses`` build theirs, or defined in a REPL)."""


def _function_source(fn) -> tuple[str, int, str]:
    code = fn.__code__
    try:
        # The code object, not the function: functools.wraps points
        # inspect at the wrapped function instead.
        lines, start = inspect.getsourcelines(code)
    except (OSError, TypeError) as e:
        raise SourceUnavailable(f"source of {fn.__qualname__} is not available: {e}") from None
    return textwrap.dedent("".join(lines)), max(start, 1), code.co_filename


def _factory_code(result, code, name, start, filename, source, qualname):
    """Compile converted function source so that its code object has the same
    free variables as ``code`` (plus ``ag__``), and the qualified name
    ``qualname`` (what it defines too: see ``requalify``)."""
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

    # (with the features of the function's module: ``from __future__ import
    # annotations`` keeps its annotations strings)
    factory_code = compile_mapped(factory_src, filename, line_of, _file_lines(filename), future_flags(code))
    # The factory's code object holds the converted function's code object.
    fcode = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == _FACTORY)
    inner = next(c for c in fcode.co_consts if isinstance(c, types.CodeType) and c.co_name == name)
    # (a global name's qualname is the name alone)
    old = inner.co_qualname if _HAS_QUALNAME else (name if own else f"{_FACTORY}.<locals>.{name}")
    generated = converters.pipeline.generated_names(result.code, _IDENTIFIER.findall(source))
    inner = requalify(inner, {tuple(old.split(".")): qualname}, generated, old)
    # The functional form: a separate function beside it (the converted
    # function reads it as a free variable, see to_graph), named as the
    # user's function in frames; it and its helpers are the machinery an
    # error's traceback leaves out (operators.trim_traceback).
    functional = next((c for c in fcode.co_consts if isinstance(c, types.CodeType)
                       and c.co_name.startswith(_FUNCTIONAL_PREFIX)), None)
    if functional is not None:
        fold = functional.co_qualname if _HAS_QUALNAME else f"{_FACTORY}.<locals>.{functional.co_name}"
        helpers = set()
        functional = requalify(functional, {tuple(fold.split(".")): qualname}, generated, fold, helpers=helpers)
        helpers.add(functional)
        _calls._machinery.update(helpers)
        _calls._forms.add(functional)
    return inner, functional


def _was_converted(result, name) -> bool:
    report = [r for r in result.report if r.qualname == name]
    return not report or report[0].status in (converters.Status.CONVERTED, converters.Status.GENERATOR)


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
    # (code objects compare equal across files: the same function copied
    # into two files must keep its own file name)
    if hit is not None and (hit[0] is None or hit[0][0].co_filename == code.co_filename):
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
        lazy=True,
    )
    if not _was_converted(result, name):
        # Left as it is (and reported): the original function is the converted one.
        entry = (None, result.report)
        with _cache_lock:
            _code_cache[code] = entry
        return entry
    entry = (_factory_code(result, code, name, start, filename, source, _qualname(fn)), result.report)
    with _cache_lock:
        _code_cache[code] = entry
    return entry


_LAMBDA = "__autograph_lambda__"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _qualname(fn) -> str:
    code = fn.__code__
    return code.co_qualname if _HAS_QUALNAME else fn.__qualname__


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
    result = converters.convert(text, filename=filename, fast_path=True, function=_LAMBDA, lazy=True)
    if not _was_converted(result, _LAMBDA):
        entry = (None, result.report)
        with _cache_lock:
            _code_cache[code] = entry
        return entry
    result.line_map = [code.co_firstlineno] * len(result.line_map)
    inner = _factory_code(result, code, _LAMBDA, code.co_firstlineno, filename, text, _qualname(fn))
    entry = (inner, result.report)
    with _cache_lock:
        _code_cache[code] = entry
    return entry


def _closure(code, cells: dict):
    return tuple(cells[n] if n in cells else types.CellType() for n in code.co_freevars) or None


def to_graph(fn: _F) -> _F:
    """Return the converted version of ``fn``.

    It shares ``fn``'s globals, closure cells and defaults. Outside a trace
    it runs ``fn``'s own statements; under a trace (or with
    ``operators.force_functional``) its functional form.
    """
    if isinstance(fn, types.MethodType):
        return cast(_F, types.MethodType(to_graph(fn.__func__), fn.__self__))
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"to_graph expects a Python function, got {type(fn).__name__}")
    code = fn.__code__
    if "ag__" in code.co_names or "ag__" in code.co_freevars:
        return fn
    # The dual form runs the functional form in the function's own frame, so
    # frame-sensitive code (warnings' stacklevel, recursion depth) is as
    # written; the cost is that captured locals are cells on the fast path.
    codes, _ = _convert_code(fn)
    if codes is None:
        return fn
    autograph_cli._register_loaded_engines()
    inner, functional = codes
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    cells["ag__"] = _ag_cell
    if functional is not None:
        # The functional form is its own function (run under a trace): the
        # user's locals stay plain locals of the function that runs them.
        form = types.FunctionType(functional, fn.__globals__, fn.__name__, fn.__defaults__,
                                  _closure(functional, cells))
        form.__kwdefaults__ = fn.__kwdefaults__
        form.__qualname__ = fn.__qualname__
        form.__module__ = fn.__module__
        var = next(v for v in inner.co_freevars if v.startswith(_FUNCTIONAL_PREFIX))
        cells[var] = types.CellType(form)
    new = types.FunctionType(inner, fn.__globals__, fn.__name__, fn.__defaults__, _closure(inner, cells))
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__annotations__ = fn.__annotations__
    new.__dict__.update(fn.__dict__)
    new.__wrapped__ = fn  # type: ignore[attr-defined]
    if functional is not None:
        _calls.register_form(new, form)
    return cast(_F, new)


_warned: "weakref.WeakSet" = weakref.WeakSet()


def convert_for_call(fn: _F) -> _F:
    """``to_graph(fn)``, or ``fn`` itself when it cannot be converted: with
    one warning, except for a function that has no source (``exec``-built,
    as namedtuple's methods are), which simply runs as it is (a line of the
    debug log under ``tf.autograph.set_verbosity(1)``)."""
    try:
        new = to_graph(fn)
    except SourceUnavailable as e:
        _logging.log(1, f"autograph: {fn.__qualname__} runs as it is ({e})")
        return fn
    except (ValueError, converters.ConversionError) as e:
        if strict_conversion():
            raise UnsupportedLanguageElementError(f"autograph could not convert {fn.__qualname__}: {e}") from None
        code = fn.__code__
        if code not in _warned:
            _warned.add(code)
            if fn.__name__ != "<lambda>":
                warnings.warn(f"autograph could not convert {fn.__qualname__}; it runs as written ({e})", AutoGraphWarning, stacklevel=3)
        return fn
    if strict_conversion() and isinstance(fn, types.FunctionType):
        if fn.__code__.co_flags & (inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR):
            raise UnsupportedLanguageElementError(
                f"autograph does not convert {fn.__qualname__} (a generator): generators are not supported (the "
                "statements that yield stay Python); AUTOGRAPH_STRICT_CONVERSION is set")
        reason = _unsupported_reason(fn) or _loop_else(fn)
        if reason is not None:
            raise UnsupportedLanguageElementError(
                f"autograph does not convert {fn.__qualname__} ({reason}); AUTOGRAPH_STRICT_CONVERSION is set")
    return new


def strict_conversion() -> bool:
    """AUTOGRAPH_STRICT_CONVERSION=1: what would run unconverted raises."""
    return os.environ.get("AUTOGRAPH_STRICT_CONVERSION", "").lower() in ("1", "true", "yes")


_loop_else_seen: dict[types.CodeType, str | None] = {}


def _loop_else(fn) -> str | None:
    """TensorFlow's autograph refuses a function with a loop's ``else``
    clause anywhere in its source (nested functions too); this project
    converts it, and gives that refusal only under strict conversion, where
    TensorFlow raises it (its reference tests expect NotImplementedError)."""
    code = fn.__code__
    if code not in _loop_else_seen:
        import ast

        reason = None
        try:
            tree = ast.parse(_function_source(fn)[0])
        except (SourceUnavailable, SyntaxError):
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and node.orelse:
                kind = "while" if isinstance(node, ast.While) else "for"
                reason = f"{kind}/else statement not yet supported, as in TensorFlow"
                break
        _loop_else_seen[code] = reason
    return _loop_else_seen[code]


def _unsupported_reason(fn):
    """Why ``fn`` (its own body) runs partly or wholly unconverted, or None."""
    try:
        _, report = _convert_code(fn)
    except (ValueError, converters.ConversionError):
        return None
    for r in report:
        if r.qualname.rpartition(".")[2] != fn.__name__:
            continue
        if not r.converted:
            return r.reason
        if r.status is converters.Status.GENERATOR:
            return "a generator: statements that yield stay Python"
    return None


def to_code(obj: Callable[..., Any] | str, *, fast_path: bool = False) -> str:
    """The converted source of a function, or of a module's source text."""
    if isinstance(obj, str):
        return converters.convert(obj, fast_path=fast_path).code
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    fn = getattr(obj, "python_function", obj)
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"to_code expects a function or source text, got {type(obj).__name__}")
    if fn.__name__ == "<lambda>":
        # As to_graph converts it: the function the lambda stands for.
        import libcst as cst

        source, start, filename = _function_source(fn)
        node = _find_lambda(fn, source)
        params = cst.Module([]).code_for_node(node.params)
        body = cst.Module([]).code_for_node(node.body)
        text = f"def {_LAMBDA}({params}):\n    return ({body})\n"
        return converters.convert(text, filename=filename, fast_path=fast_path, function=_LAMBDA).code
    source, start, filename = _function_source(fn)
    return converters.convert(
        source,
        filename=filename,
        fast_path=fast_path,
        function=fn.__code__.co_name,
        strip_decorators=True,
        first_line=start,
    ).code


def _compile_functional(source, line_map, filename, renames, generated, helpers, flags=0):
    return requalify(compile_lines(source, line_map, filename, flags), renames, generated, helpers=helpers)


# The operators' converter hook (operators and runtime never import api).
operators.set_converter(types.SimpleNamespace(convert=convert_for_call, compile=_compile_functional, requalify=requalify))

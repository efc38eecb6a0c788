"""The contracts of the operators: what a backend implements, what a
converter provides, and the names converted code and the operators share.

A backend stages the values of the types it registers
(``register_backend(types, backend)``). The operators call it only with a
staged value in the deciding position (the condition, the iterable, the
operand); everything else about the construct reaches it through a
``State``. The variables a construct carries may hold three markers instead
of a value:

- ``UNDEFINED``: the name is not bound (yet) on this path. A name bound on
  one path of a staged conditional only must fail where it is used after it,
  with a message naming the variable and the line.
- ``UNDEFINED_RETURN``: the function's return value before any ``return``
  ran, guarded by a return flag; a backend may give it a typed placeholder
  on the path where no return ran.
- ``NO_RETURN``: no ``return`` ran and none can run later on this path.

The converter's own names (the return value, the return flag) are never
recognised by name: they reach a backend only as these markers and as the
explicit ``done`` flag of ``check_returned``. A user's variable called
``retval_`` or ``do_return`` is a variable like any other.
"""
from __future__ import annotations

import types
from typing import Any, Callable, Iterator, Mapping, Optional, Protocol, Sequence, Tuple, runtime_checkable

Location = Tuple[str, int]


class StateLike(Protocol):
    """What a backend sees of the variables a construct carries (``State``)."""

    names: Tuple[str, ...]
    functions: Tuple[Callable[..., Any], ...]

    def get(self) -> tuple: ...

    def set(self, values: Sequence[Any]) -> None: ...

    @property
    def location(self) -> Location: ...


@runtime_checkable
class Backend(Protocol):
    """What a backend implements. Each method receives a staged value of a
    type the backend registered in its deciding argument; the converted
    closures (``body``, ``orelse``, ``test`` ...) read and write the carried
    variables, which the backend reads and restores through ``state``."""

    def if_stmt(self, cond: Any, body: Callable[[], None], orelse: Optional[Callable[[], None]],
                state: StateLike) -> None:
        """``if cond: body() else: orelse()``; leaves the merged values in ``state``."""

    def if_exp(self, cond: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any]) -> Any:
        """``true_fn() if cond else false_fn()``."""

    def while_stmt(self, test: Callable[[], Any], body: Callable[[], None], state: StateLike,
                   opts: Mapping[str, Any], first_cond: Any) -> None:
        """``while test(): body()``; ``first_cond`` is the staged value ``test()``
        returned (the loop may already have run Python iterations)."""

    def for_stmt(self, iterable: Any, extra_test: Optional[Callable[[], Any]], body: Callable[[Any], None],
                 state: StateLike, opts: Mapping[str, Any]) -> None:
        """``for item in iterable: body(item)``, stopping once ``extra_test()``
        (the loop's break/return flags) is false."""

    def and_(self, value: Any, rest_fns: Sequence[Callable[[], Any]]) -> Any:
        """``value and rest_fns[0]() and ...`` with a staged ``value``."""

    def or_(self, value: Any, rest_fns: Sequence[Callable[[], Any]]) -> Any:
        """``value or rest_fns[0]() or ...`` with a staged ``value``."""

    def not_(self, value: Any) -> Any:
        """``not value``."""

    def assert_stmt(self, cond: Any, msg_fn: Optional[Callable[[], Any]], location: Optional[Location]) -> Any:
        """A staged ``assert cond, msg_fn()`` at ``location`` (the user's file
        and line): checked each time the staged code runs, failing with the
        user's message; returns a true value (the converted code's Python
        ``assert`` then passes)."""

    def list_append(self, lst: Any, value: Any) -> Any:
        """Statement ``lst.append(value)``; returns the (possibly new) list."""

    def list_pop(self, lst: Any, index: Optional[Any]) -> Tuple[Any, Any]:
        """Statement ``v = lst.pop(index)``; returns ``(list, v)``."""

    def check_returned(self, done: Any, location: Tuple[str, int, str]) -> None:
        """At the end of a function whose return flag ``done`` is staged: fail
        at run time, naming ``location`` (file, line, function), on a path
        where no ``return`` ran."""

    def builtin_overloads(self) -> Mapping[Callable[..., Any], Callable[..., Any]]:
        """Replacements for builtins (``range``, ``len``, ``print`` ...) that
        converted code calls. Each replaces the builtin entirely for calls
        where a value of the backend's types is among the arguments; when
        several backends overload one builtin, the operators pick by the
        arguments' types."""


@runtime_checkable
class PythonLoopStager(Protocol):
    """Optional: a backend that stages the rest of a Python loop whose
    ``break`` or ``return`` came to depend on one of its values (JAX: no
    TensorFlow contract, and no other way to stop early in a loop of static
    length). It also receives ``while_stmt`` for a Python ``while`` whose
    test became staged after Python iterations. Without it (the numpy
    runtime, TensorFlow's semantics) the operators raise
    ``PythonLoopTensorError`` at the user's loop instead."""

    def guarded_for(self, it: Iterator[Any], keep_going: Any, extra_test: Callable[[], Any],
                    body: Callable[[Any], None], state: StateLike) -> None:
        """The rest of a Python ``for`` loop after ``extra_test()`` became the
        staged ``keep_going`` (a break or return that depends on a staged
        value): each further iteration runs under a staged condition."""


@runtime_checkable
class ScratchTest(Protocol):
    """Optional: a backend whose traces can forget what the first evaluation
    of a ``while`` test added. The operators evaluate the test once to choose
    the loop's kind; a staged loop traces the test again inside the loop, so
    that first evaluation must leave no side effect behind (a variable
    assigned in the test would run once more than in Python). TensorFlow
    evaluates it in a scratch graph."""

    def trace_mark(self) -> Any:
        """An opaque mark of the trace being recorded (None outside one)."""

    def discard_since(self, mark: Any) -> None:
        """Drop the side effects recorded since ``mark``: what they compute
        runs only if something uses it."""


@runtime_checkable
class TraceProbe(Protocol):
    """Optional: a backend whose traces begin outside the operators (JAX's
    transformations call converted code directly) says whether one is
    active. Converted functions consult it on entry only while such a
    backend is registered, so plain Python pays nothing otherwise."""

    def trace_active(self) -> bool: ...


class Converter(Protocol):
    """What the operators need from the converter (``set_converter``)."""

    def convert(self, fn: types.FunctionType) -> Callable[..., Any]:
        """``fn`` converted for a call from converted code (or ``fn`` itself
        when it cannot be converted)."""

    def compile(self, source: str, line_map: Sequence[int], filename: str, renames: Mapping[tuple, str],
                generated: Sequence[str], helpers: set, flags: int = 0) -> types.CodeType:
        """Compile a lazy module's functional forms under ``filename`` and the
        user's lines, with user-facing names (``renames``) and the module's
        ``__future__`` features (``flags``); the code objects of generated
        helpers are added to ``helpers``."""

    def requalify(self, code: types.CodeType, renames: Mapping[tuple, str], generated: Sequence[str],
                  qualname: str, helpers: set) -> types.CodeType:
        """``code`` (a functional form written out as a plain def, named
        ``qualname``) with the same user-facing names ``compile`` gives."""

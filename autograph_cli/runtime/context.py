"""Global execution state: the graph being traced (None: eager) and tapes;
tf.name_scope."""
from __future__ import annotations

import contextlib

__all__ = ["ctx", "current_name_scope", "executing_eagerly", "name_scope"]


class _Context:
    __slots__ = ("graph", "tapes", "run_eagerly", "trace_depth", "variable_creation")

    def __init__(self):
        self.graph = None  # the Graph being traced, or None when eager
        self.tapes = []  # active GradientTapes (eager recording)
        self.run_eagerly = False  # config.run_functions_eagerly
        self.trace_depth = 0
        # None: variables may be created; otherwise a callable raising the
        # singleton-variable error (set while re-tracing a Function).
        self.variable_creation = None


ctx = _Context()


def executing_eagerly() -> bool:
    return ctx.graph is None


_SCOPES: list = []  # the open tf.name_scope prefixes, innermost last ("outer/inner/")


def current_name_scope() -> str:
    """The prefix tf.name_scope blocks give the names made in them ("" outside)."""
    return _SCOPES[-1] if _SCOPES else ""


class name_scope(contextlib.AbstractContextManager):  # noqa: N801 - TensorFlow's name
    """tf.name_scope: a context manager giving its scope ("outer/inner/").
    Variables created in the block have it as their names' prefix, as in
    TensorFlow (node names are not prefixed by this runtime). A name ending
    in "/" is an absolute scope; "" or None returns to the top level."""

    def __init__(self, name):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name_scope: name must be a string, got {name!r}")
        self._name = name

    @property
    def name(self):
        return self._name

    def __enter__(self):
        if not self._name:
            scope = ""
        elif self._name.endswith("/"):
            scope = self._name
        else:
            scope = current_name_scope() + self._name + "/"
        _SCOPES.append(scope)
        return scope

    def __exit__(self, *exc):
        if _SCOPES:
            _SCOPES.pop()
        return False

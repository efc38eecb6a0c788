"""Global execution state: the graph being traced (None: eager) and tapes."""
from __future__ import annotations

__all__ = ["ctx"]


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

"""Static analysis: every fact the converters and ``autograph check`` know
about a program, each computed by one piece of code.

Two trees, one owner per fact. The converters rewrite libcst trees and need
facts per libcst statement (including statements they build); ``check``
runs in pre-commit hooks on Python's ``ast`` alone (a libcst parse would
cost it 10x). A fact both need is computed on ``ast``: the conversion
pipeline parses every module with ``ast`` anyway (syntax errors, the depth
guard, line numbers) and pairs its statements with libcst's
(``lines.statement_lines``), so it reads the same answer ``check`` reports.

- ``_statements`` (libcst; converters only): per statement of a function's
  own scope, the names it reads, binds and certainly binds (liveness), and
  whether it yields, returns or leaves a loop; per function, declarations,
  loops' jumps, returns inside control flow, calls, ``super()``.
- ``_unconvertible`` (ast; shared): the constructs that make the converter
  leave a function as it is (``async``, ``locals()``/``vars()``/``exec``/
  ``eval``, ``return``/``break``/``continue`` in ``finally``, ``import *``)
  and the ``yield`` that makes it a generator. ``check`` reports them
  (AG401-AG404); the converter asks ``_statements.ConverterView`` (the
  functions' ``ast`` nodes, paired by the pipeline), and its report gives
  the first as its reason.
- ``_module`` (ast): a module's imports and aliases, its module-level names
  (also the shadowing the shared rules respect), which functions are staged.
- ``_scope`` (ast): one function's own scope (parameters, bound names,
  ``global``/``nonlocal``) and which of its names can hold tensors (the
  ``_types`` classes, and the parameter each tensor-valued local derives
  from: ``check``'s AG101-AG103).
- ``_types`` (ast): the coarse PY/TENSOR/UNKNOWN classification of
  expressions; ``_walk`` (ast): fast child iteration.
"""
from ._module import FuncInfo, ModuleInfo, is_tf_qualname, module_names, scan_module
from ._scope import OwnScope, Scope, module_classes, own_nodes, own_scope, root_name
from ._walk import target_names
from ._statements import ConverterView, Facts, FunctionInfo, analyze_function
from ._unconvertible import LOCALS_READERS, Construct, constructs
from ._types import BOTTOM, PY, TENSOR, UNKNOWN, Classifier, join
from ._walk import child_nodes, walk

__all__ = [
    "BOTTOM", "LOCALS_READERS", "PY", "TENSOR", "UNKNOWN", "Classifier", "Construct", "ConverterView", "Facts", "FuncInfo", "FunctionInfo", "ModuleInfo",
    "OwnScope", "Scope", "analyze_function", "child_nodes", "constructs", "is_tf_qualname", "join", "module_classes", "module_names",
    "own_nodes", "own_scope", "root_name", "scan_module", "target_names", "walk",
]

"""The ``converters`` package this project installs, found reliably.

``converters`` is a top-level package, so a user's own module or package of
that name (a ``converters.py`` beside the script, say) comes first on
``sys.path``. Everything in ``autograph_cli`` gets the package through
``load()``: the installed one by its usual name when that name resolves to
it (nothing is imported to find out), else the same files loaded under a
private name (the package imports itself relatively, so it works under any
name) and the user's module keeps its own.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import threading
import types

_NAME = "converters"
_PRIVATE = "autograph_cli._own_converters"
_lock = threading.Lock()
_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), _NAME)


def _same(path: str | None) -> bool:
    try:
        return path is not None and os.path.samefile(os.path.dirname(path), _DIR)
    except OSError:
        return False


_private: types.ModuleType | None = None  # set once the private copy has fully loaded


def load() -> types.ModuleType:
    """The project's ``converters`` package."""
    global _private
    if _private is not None:
        return _private
    mod = sys.modules.get(_NAME)
    if mod is not None:
        if _same(getattr(mod, "__file__", None)):
            return mod
    elif not os.path.isdir(_DIR):  # installed some other way: trust the import system
        return importlib.import_module(_NAME)
    else:
        spec = importlib.util.find_spec(_NAME)
        if spec is not None and _same(spec.origin):
            return importlib.import_module(_NAME)
    # Shadowed by the user's own ``converters``: load ours under a private name.
    # (sys.modules holds it while it executes, for its relative imports;
    # other threads get it only once it is complete)
    with _lock:
        if _private is not None:
            return _private
        init = os.path.join(_DIR, "__init__.py")
        loader = importlib.machinery.SourceFileLoader(_PRIVATE, init)
        spec = importlib.util.spec_from_file_location(_PRIVATE, init, loader=loader, submodule_search_locations=[_DIR])
        if spec is None:  # (not with a loader given)
            raise ImportError(f"cannot load {init}")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[_PRIVATE] = mod
        try:
            loader.exec_module(mod)
        except BaseException:
            del sys.modules[_PRIVATE]
            raise
        _private = mod
        return mod


def load_check() -> types.ModuleType:
    """``converters.check``, from the same package as ``load()``."""
    return importlib.import_module(load().__name__ + ".check")


def directory() -> str:
    """Where the package's files are (the import hook stamps its cache with them)."""
    return _DIR

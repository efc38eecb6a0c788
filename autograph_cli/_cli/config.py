"""Defaults from ``[tool.autograph]`` in pyproject.toml.

The file is looked up from the common directory of the paths given, upwards,
stopping at the repository root. Keys use the long option names (``jobs``,
``exclude``, ``strict``, ``select``, ``ignore``, ``staged``, ``fast-path``,
``gitignore``, ``default-excludes``), plus ``extend-exclude`` (patterns added
to ``exclude``, whichever gave it); a command-line option always wins over
the file. ``convert-check = {source = "src", output = "converted"}`` (paths
relative to the pyproject.toml) tells ``convert --check/--diff`` on those
paths to compare the converted files with a fresh conversion of their
sources.
"""
from __future__ import annotations

import os
import sys

from autograph_cli._cli.files import SourceError

__all__ = ["KNOWN_KEYS", "find_pyproject", "load_config"]

#: key -> expected Python type(s)
KNOWN_KEYS = {
    "exclude": list,
    "jobs": int,
    "strict": bool,
    "select": list,
    "ignore": list,
    "staged": list,
    "fast_path": bool,
    "gitignore": bool,
    "default_excludes": bool,
    "extend_exclude": list,
    "convert_check": dict,
}


def find_pyproject(paths) -> str | None:
    dirs = []
    for p in paths:
        if p == "-":
            p = os.getcwd()
        p = os.path.abspath(p)
        dirs.append(p if os.path.isdir(p) else os.path.dirname(p))
    if not dirs:
        dirs = [os.getcwd()]
    try:
        d = os.path.commonpath(dirs)
    except ValueError:
        d = os.getcwd()
    while True:
        candidate = os.path.join(d, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        if os.path.exists(os.path.join(d, ".git")):
            return None
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def load_config(path: str | None) -> tuple[dict, list[str]]:
    """Return ``(options, warnings)`` from ``path``'s ``[tool.autograph]``.

    A file that cannot be read or parsed raises ``SourceError``.
    """
    if path is None:
        return {}, []
    try:
        with open(path, "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8")
    except OSError as e:
        raise SourceError(path, 1, 1, f"cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise SourceError(path, raw.count(b"\n", 0, e.start) + 1, 1, "not UTF-8") from None
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        try:
            import tomli as tomllib
        except ImportError:
            return {}, [f"{path}:1:1: [tool.autograph] ignored: no TOML parser (pip install tomli)"]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        import re

        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        msg = str(e).split(" (at ", 1)[0]
        raise SourceError(path, line, col, f"invalid TOML: {msg}") from None
    table = data.get("tool", {}).get("autograph", {})
    if not isinstance(table, dict):
        raise SourceError(path, 1, 1, "[tool.autograph] must be a table")
    options, warnings = {}, []
    for key, value in table.items():
        name = key.replace("-", "_")
        expected = KNOWN_KEYS.get(name)
        if expected is None:
            warnings.append(f"{path}:1:1: unknown key tool.autograph.{key} (ignored)")
            continue
        if expected is list and isinstance(value, str):
            value = [value]
        if expected is int and isinstance(value, bool) or not isinstance(value, expected):
            raise SourceError(path, 1, 1, f"tool.autograph.{key} must be {expected.__name__}, not {type(value).__name__}")
        if isinstance(value, list) and not all(isinstance(v, str) for v in value):
            raise SourceError(path, 1, 1, f"tool.autograph.{key} must be a list of strings")
        if name == "convert_check" and isinstance(value, dict):  # (a table: checked above)
            if set(value) != {"source", "output"} or not all(isinstance(v, str) and v for v in value.values()):
                raise SourceError(path, 1, 1, f"tool.autograph.{key} must be {{source = \"DIR\", output = \"DIR\"}}")
            base = os.path.dirname(os.path.abspath(path))
            value = {k: os.path.normpath(os.path.join(base, v)) for k, v in value.items()}
        if name == "jobs" and value < 1:
            raise SourceError(path, 1, 1, f"tool.autograph.{key} must be at least 1, not {value}")
        options[name] = value
    return options, warnings

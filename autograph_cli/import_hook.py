"""An import hook that converts chosen modules as they are imported.

``install_import_hook(["pkg", "mod"])`` puts a PEP 451 finder at the front of
``sys.meta_path``. It claims only the named modules and their submodules (a
string test comes first, so every other import pays almost nothing), lets the
normal finders locate the file, and swaps in a loader that converts the whole
module; the converted module binds the operators as ``ag__`` itself.

Converted bytecode is cached beside the normal ``.pyc`` under a private tag
(package version + a digest of the conversion options), validated by the
source's hash (with the source's stat as a shortcut while it is unchanged:
see ``ConvertingLoader``), written atomically (temporary file +
``os.replace``), and not written at all under ``sys.dont_write_bytecode`` or
in a read-only directory.

A module whose docstring contains ``autograph: off`` is imported as written.

This module stays light: libcst (through ``converters``) and the API are
imported only when a module is actually converted.
"""
from __future__ import annotations

import _imp
import _io
import _thread  # (threading's import costs ~2 ms; a lock, a local and get_ident are all we use)
import importlib.machinery
import marshal
import os
import sys
import time
import types
import warnings

# importlib.util and importlib.abc would import importlib.resources, pathlib,
# contextlib, typing ... (~14 ms): what we use of them is the frozen
# bootstrap's, already loaded in every interpreter.
from importlib._bootstrap_external import MAGIC_NUMBER as _MAGIC, cache_from_source, decode_source
from autograph_cli import _register_loaded_engines


_RAW_MAGIC_NUMBER = int.from_bytes(_MAGIC, "little")  # (as importlib computes its own)


def source_hash(data: bytes) -> bytes:
    """importlib.util.source_hash: the hash a PEP 552 pyc records."""
    return _imp.source_hash(_RAW_MAGIC_NUMBER, data)


if False:  # (annotations only: importing typing costs ~3 ms)
    from typing import Iterable, Sequence

__all__ = [
    "AutographImportWarning",
    "ImportHookHandle",
    "OPT_OUT_MARKER",
    "install_import_hook",
]

#: A module whose docstring contains this text is not converted.
OPT_OUT_MARKER = "autograph: off"
#: What a converted module runs first (its code runs on its own: ``runpy``,
#: ``loader.get_code`` and ``exec`` need nothing from the loader).
BIND_OPERATORS = "from autograph_cli import operators as ag__"

_FLAGS_CHECKED_HASH = 0b11  # PEP 552: hash-based, checked
_FLAG_STAT = 0b1000  # ours: the header holds the source's stat key
_HEADER = 16 + 32  # pyc header + stat key
_U64 = (1 << 64) - 1
#: A source modified less than this long ago gets no stat key (see below).
_RACY_NS = 2_000_000_000
_install_lock = _thread.RLock()


class AutographImportWarning(UserWarning):
    """A module named for conversion was imported before the hook existed."""


def _version() -> str:
    from autograph_cli import __version__

    return __version__


def _options_digest(options: dict) -> str:
    # (imported here: needed once per hook, at its first converted import)
    import hashlib
    import json

    blob = json.dumps(options, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()[:12]


_converting = _thread._local()


def _converter_stamp() -> list:
    """(name, size, mtime) of the files whose code decides the cached code:
    the ``converters`` package, the API and line mapping that compile it,
    and this loader."""
    from autograph_cli._converters import directory

    stamp = []
    dirs = [directory()]
    here = os.path.dirname(os.path.abspath(__file__))
    files = [os.path.join(here, name) for name in ("api.py", "_lines.py", "_converters.py", "import_hook.py")]
    for d in dirs:
        try:
            files += [os.path.join(d, n) for n in os.listdir(d) if n.endswith(".py")]
        except OSError:
            pass
    for path in sorted(files):
        try:
            st = os.stat(path)
        except OSError:
            continue
        stamp.append([os.path.basename(path), st.st_size, st.st_mtime_ns])
    return stamp


def _has_opt_out(source: str) -> bool:
    """True when the module docstring contains the opt-out marker."""
    if OPT_OUT_MARKER not in source:
        return False
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    doc = ast.get_docstring(tree, clean=False)
    return doc is not None and OPT_OUT_MARKER in doc


class ConvertingLoader(importlib.machinery.SourceFileLoader):
    """A source loader whose code is the converted module."""

    def __init__(self, fullname: str, path: str, hook: "_Hook"):
        super().__init__(fullname, path)
        self._hook = hook
        self.cache_path = self._cache_path(path)

    # -- cache ----------------------------------------------------------------
    #
    # A cache file is a hash-based pyc header (PEP 552: magic, flags, the
    # source's hash) followed by the source's stat key and the marshalled
    # code. The hash decides: an entry is used only for the source it was
    # made from. The stat key (mtime_ns, ctime_ns, size, inode) was recorded
    # when that hash last matched; while the source's stat is unchanged its
    # content is too, so a cached import costs a stat, not a read and a hash
    # of the source (the check git's index makes). A key is recorded only
    # when, at the time of its stat, the source's last change (mtime or
    # ctime: a copy keeping an old mtime is a change too) is more than
    # _RACY_NS old: an edit within the same timestamp tick would otherwise
    # go unseen. Under
    # ``--check-hash-based-pycs always`` every import hashes the source;
    # under ``never`` the cache is trusted as it is.

    def _cache_path(self, source_path: str) -> str | None:
        try:
            plain = cache_from_source(source_path)
        except (NotImplementedError, ValueError):
            return None
        return f"{plain[:-4]}.{self._hook.cache_tag}.pyc"

    def _cached_code(self, source_path: str, cache_path: str):
        """``(code, source, key, vouches)``: the cached code, or None when the
        cache is missing, unreadable, of another version or stale; the
        source's bytes if they were read; its stat key (None if not taken)
        and whether that key may be recorded (see ``_source_stat``)."""
        source = key = None
        vouches = False
        try:
            with _io.FileIO(cache_path, "r") as f:
                data = f.readall()
        except OSError:
            return None, source, key, vouches
        if len(data) < _HEADER or data[:4] != _MAGIC:
            return None, source, key, vouches
        flags = int.from_bytes(data[4:8], "little")
        if flags & ~_FLAG_STAT != _FLAGS_CHECKED_HASH:
            return None, source, key, vouches
        check = _imp.check_hash_based_pycs
        if check != "never":
            try:
                key, vouches = _source_stat(source_path)
            except OSError:
                return None, source, key, vouches
            if check == "always" or not (flags & _FLAG_STAT and data[16:_HEADER] == key):
                try:
                    source = self.get_data(source_path)
                except OSError:
                    return None, source, key, vouches
                if source_hash(source) != data[8:16]:
                    return None, source, key, vouches
                if check != "always" and vouches and not sys.dont_write_bytecode:
                    # The hash matched a source whose stat changed (touched,
                    # checked out again, copied): record the new key so that
                    # later imports skip the hash.
                    _write_atomic(cache_path, _header(flags | _FLAG_STAT, data[8:16], key) + memoryview(data)[_HEADER:])
        try:
            code = marshal.loads(memoryview(data)[_HEADER:])
        except (EOFError, ValueError, TypeError):
            return None, source, key, vouches
        return (code if isinstance(code, types.CodeType) else None), source, key, vouches

    def _write_cache(self, cache_path: str, source_hash: bytes, key: bytes | None, vouches: bool,
                     code: types.CodeType) -> None:
        if sys.dont_write_bytecode:
            return
        flags = _FLAGS_CHECKED_HASH
        if key is None or not vouches:
            key = bytes(_HEADER - 16)
        else:
            flags |= _FLAG_STAT
        _write_atomic(cache_path, _header(flags, source_hash, key) + marshal.dumps(code))

    # -- loading --------------------------------------------------------------

    def get_code(self, fullname: str) -> types.CodeType:
        """The converted module's code (it binds ``ag__`` itself); importlib's
        ``exec_module`` runs it as it runs any module's code, so tracebacks of
        errors raised by the module body look as a plain import's do."""
        _register_loaded_engines()
        source_path = self.path
        cache_path = self.cache_path
        data = key = None
        vouches = False
        if cache_path is not None:
            code, data, key, vouches = self._cached_code(source_path, cache_path)
            if code is not None:
                _fix_filename(code, source_path)
                return code
        if data is None:
            try:
                key, vouches = _source_stat(source_path)  # before the read: a later edit changes it
            except OSError:
                key, vouches = None, False
            data = self.get_data(source_path)
        code, cacheable = self._convert(fullname, source_path, data)
        if cache_path is not None and cacheable:
            self._write_cache(cache_path, source_hash(data), key, vouches, code)
        return code

    def _convert(self, fullname: str, source_path: str, data: bytes) -> tuple[types.CodeType, bool]:
        """The converted code, and whether to cache it (not after a failure
        of ours, so that its warning shows every time).

        When the module cannot be converted it is compiled as written, outside
        any ``except`` block: a syntax error of the user's surfaces exactly as
        a plain import raises it, with no frames or chained errors of ours."""
        source = decode_source(data)
        if _has_opt_out(source):
            return self._plain(data, source_path), True
        failure = None  # (line, why) when converting failed through no fault of the user's code
        _converting.active = True
        try:
            from autograph_cli._converters import load
            from autograph_cli.api import compile_result

            converters = load()
        except ImportError as e:  # libcst missing or broken: run as written
            converters = None
            failure = (1, f"cannot convert ({e})")
        finally:
            _converting.active = False
        if converters is not None:
            try:
                result = converters.convert(source, filename=source_path, fast_path=self._hook.fast_path, lazy=True,
                                            bind=BIND_OPERATORS)
            except converters.ConversionError:
                result = None  # a syntax error: the compiler reports it below
            except (RecursionError, MemoryError):
                result, failure = None, (1, "too deeply nested to convert")
            except Exception as e:  # a bug of ours, unless the code does not compile at all
                result = None
                if converters.compile_error(source, source_path) is None:
                    failure = (1, f"internal error, cannot convert ({type(e).__name__}: {e})")
            if result is not None:
                try:
                    code = compile_result(result, original=source)
                    # Functions converted in place (nested in one left as it
                    # is): their helpers and what they define get the user's
                    # names (api.requalify).
                    from autograph_cli.api import _IDENTIFIER, requalify

                    generated = converters.pipeline.generated_names(result.code, _IDENTIFIER.findall(source))
                    return requalify(code, {}, generated), True
                except (SyntaxError, ValueError) as e:
                    line, why = getattr(e, "lineno", None) or 1, getattr(e, "msg", None) or str(e)
                if converters.compile_error(source, source_path) is None:
                    # The converter produced code Python rejects: a bug of ours.
                    failure = (result.original_line(line), f"internal error, the converted module does not compile ({why})")
        if failure is not None:
            line, why = failure
            warnings.warn_explicit(f"{source_path}:{line}:1: {why}; imported as written", AutographImportWarning,
                                   source_path, line, module=fullname)
        return self._plain(data, source_path), False

    @staticmethod
    def _plain(data: bytes, source_path: str) -> types.CodeType:
        return compile(data, source_path, "exec", dont_inherit=True, optimize=-1)


def _fix_filename(code: types.CodeType, path: str) -> None:
    if code.co_filename != path:
        _imp._fix_co_filename(code, path)  # type: ignore[attr-defined]  # (CPython's; typeshed has no stub)


def _stat_key(st: os.stat_result) -> bytes:
    return b"".join([
        st.st_mtime_ns.to_bytes(8, "little", signed=True),
        st.st_ctime_ns.to_bytes(8, "little", signed=True),
        (st.st_size & _U64).to_bytes(8, "little"),
        (st.st_ino & _U64).to_bytes(8, "little"),
    ])


def _source_stat(path: str) -> tuple[bytes, bool]:
    """The source's stat key, and whether it may vouch for the content read
    after it: not when the file changed less than ``_RACY_NS`` before this
    stat (a second edit within the same timestamp tick would leave the same
    key), nor when its times are ahead of our clock."""
    st = os.stat(path)
    now = time.time_ns()
    return _stat_key(st), now - max(st.st_mtime_ns, st.st_ctime_ns) >= _RACY_NS


def _header(flags: int, source_hash: bytes, key: bytes) -> bytes:
    return b"".join([_MAGIC, flags.to_bytes(4, "little"), source_hash, key])


def _write_atomic(path: str, data) -> None:
    """Readers see the old file or the whole new one; any OSError (read-only
    directory, full disk, ...) leaves things as they were."""
    tmp = f"{path}.{os.getpid()}.{_thread.get_ident()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


class _Hook:
    """The finder: claims the named modules, lets the others find the file."""

    def __init__(self, names: Sequence[str], fast_path: bool):
        self.names = tuple(names)
        self._prefixes = tuple(n + "." for n in self.names)
        self.fast_path = fast_path
        self._cache_tag: str | None = None

    @property
    def cache_tag(self) -> str:
        """``autograph-<version>-<digest>``: the digest covers the conversion
        options and the converter's own files (name, size, mtime), so a
        development checkout never reuses output of an older converter."""
        if self._cache_tag is None:
            options = {"fast_path": self.fast_path, "optimize": sys.flags.optimize, "converter": _converter_stamp()}
            self._cache_tag = f"autograph-{_version()}-{_options_digest(options)}"
        return self._cache_tag

    def claims(self, fullname: str) -> bool:
        return fullname in self.names or fullname.startswith(self._prefixes)

    def find_spec(self, fullname, path=None, target=None):
        if not self.claims(fullname) or getattr(_converting, "active", False):
            # While this thread loads the converter (libcst imports modules
            # such as textwrap), modules import as written.
            return None
        for finder in list(sys.meta_path):
            if isinstance(finder, _Hook):
                continue
            find = getattr(finder, "find_spec", None)
            if find is None:
                continue
            spec = find(fullname, path, target)
            if spec is None:
                continue
            if type(spec.loader) is importlib.machinery.SourceFileLoader and spec.origin:
                spec.loader = ConvertingLoader(spec.name, spec.origin, self)
                spec.cached = spec.loader.cache_path
            return spec
        return None

    def invalidate_caches(self) -> None:
        pass


class ImportHookHandle:
    """What ``install_import_hook`` returns: ``uninstall()`` or use ``with``."""

    def __init__(self, hook: _Hook):
        self._hook = hook

    @property
    def modules(self) -> tuple[str, ...]:
        return self._hook.names

    def uninstall(self) -> None:
        with _install_lock:
            try:
                sys.meta_path.remove(self._hook)
            except ValueError:
                pass

    def __enter__(self) -> "ImportHookHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.uninstall()

    def __repr__(self) -> str:
        return f"<autograph import hook for {', '.join(self._hook.names)}>"


def install_import_hook(modules: Iterable[str] | str, *, fast_path: bool = True) -> ImportHookHandle:
    """Convert the named modules (and their submodules) when they are imported.

    Returns a handle; ``handle.uninstall()`` or leaving a ``with`` block
    removes the hook (modules already converted stay converted).
    """
    if isinstance(modules, str):
        modules = [modules]
    names = []
    for name in modules:
        if not isinstance(name, str) or not name or not all(p.isidentifier() for p in name.split(".")):
            raise ValueError(f"not a module name: {name!r}")
        names.append(name)
    if not names:
        raise ValueError("install_import_hook needs at least one module name")
    hook = _Hook(names, fast_path)
    already = sorted(m for m in list(sys.modules) if hook.claims(m))
    if already:
        warnings.warn(
            f"already imported, so not converted: {', '.join(already)} "
            "(install the autograph import hook before importing them)",
            AutographImportWarning,
            stacklevel=2,
        )
    with _install_lock:
        sys.meta_path.insert(0, hook)
    return ImportHookHandle(hook)

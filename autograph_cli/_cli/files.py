"""Finding, reading and writing the files the CLI works on.

- discovery: explicit files are taken as given; directories are walked for
  ``*.py``, skipping the default excludes (tool/VCS/build directories,
  outside packages only), what ``.gitignore`` files name (from the
  repository root down) and what ``--exclude`` patterns name; each skip is
  reported to the caller;
- layout: ``output_targets`` says where ``convert -o`` writes each file;
- reading: bytes -> text with the PEP 263 encoding, refusing binary files;
  every failure is a ``SourceError`` that prints as one located line;
- writing: a temporary file in the same directory, then ``os.replace``.
"""
from __future__ import annotations

import io
import os
import re
import stat
import sys
import tempfile
import tokenize
from dataclasses import dataclass

__all__ = [
    "DEFAULT_EXCLUDED_DIRS",
    "IgnoreRules",
    "Source",
    "SourceError",
    "atomic_write",
    "common_root",
    "discover",
    "output_targets",
    "read_source",
]

#: Directories skipped by name when walking a directory, outside packages
#: only (a directory holding ``__init__.py``, or inside one that does, is
#: code and is walked). ``--no-default-excludes`` (``default-excludes =
#: false``) walks them too; ``*.egg-info`` is skipped with them.
DEFAULT_EXCLUDED_DIRS = frozenset({
    ".git", ".hg", ".svn", ".bzr", "__pycache__", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", ".hypothesis", ".tox", ".nox", ".venv", "venv", ".eggs",
    "node_modules", "build", "dist", "_build", "buck-out", "__pypackages__",
    ".direnv", ".ipynb_checkpoints", ".vscode", ".idea",
})

STDIN = "-"


class SourceError(Exception):
    """A file that cannot be used; ``str()`` is ``path:line:col: message``."""

    def __init__(self, path: str, line: int, col: int, message: str):
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path, self.line, self.col, self.message = path, line, col, message


@dataclass
class Source:
    path: str            # as shown to the user
    text: str
    encoding: str
    data: bytes


def _os_message(e: OSError) -> str:
    return e.strerror or type(e).__name__


def _locate(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return line, col


def decode(data: bytes, path: str) -> tuple[str, str]:
    """Bytes -> (text, encoding), as Python would read the module."""
    nul = data.find(b"\0")
    if nul >= 0:
        line, col = _locate(data, nul)
        raise SourceError(path, line, col, "binary file: contains a NUL byte")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as u:
            line, col = _locate(data, u.start)
            raise SourceError(path, line, col, f"cannot decode as utf-8: {u.reason} (byte 0x{data[u.start]:02x})") from None
        raise SourceError(path, e.lineno or 1, 1, str(e.msg).split(" for ", 1)[0]) from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line, col = _locate(data, e.start)
        raise SourceError(path, line, col, f"cannot decode as {encoding}: {e.reason} (byte 0x{data[e.start]:02x})") from None
    except LookupError:
        raise SourceError(path, 1, 1, f"unknown encoding {encoding!r}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, encoding


def read_source(path: str) -> Source:
    if path == STDIN:
        data = sys.stdin.buffer.read()
        shown = "<stdin>"
    else:
        shown = path
        try:
            # Non-blocking: opening a FIFO must not wait for a writer.
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        except IsADirectoryError:
            raise SourceError(path, 1, 1, "is a directory") from None
        except OSError as e:
            raise SourceError(path, 1, 1, f"cannot read: {_os_message(e)}") from None
        try:
            is_dir = stat.S_ISDIR(os.fstat(fd).st_mode)
        except OSError:
            is_dir = False
        if is_dir:  # (os.fdopen would raise IsADirectoryError)
            os.close(fd)
            raise SourceError(path, 1, 1, "is a directory")
        with os.fdopen(fd, "rb") as f:
            try:
                mode = os.fstat(fd).st_mode
                if stat.S_ISSOCK(mode):
                    raise SourceError(path, 1, 1, "not a regular file")
                if not stat.S_ISREG(mode):
                    # A pipe named on purpose (`<(...)`, /dev/stdin): read it
                    # to its end; with no writer at all that end comes at once.
                    os.set_blocking(fd, True)
                data = f.read()
            except OSError as e:
                raise SourceError(path, 1, 1, f"cannot read: {_os_message(e)}") from None
    text, encoding = decode(data, shown)
    return Source(shown, text, encoding, data)


def encode(text: str, encoding: str, original: bytes = b"") -> bytes:
    data = text.encode(encoding)
    if original.startswith(b"\xef\xbb\xbf") and not data.startswith(b"\xef\xbb\xbf"):
        data = b"\xef\xbb\xbf" + data
    return data


def _blocker(directory: str) -> str | None:
    """'X is not a directory' when a file stands where ``directory`` or one
    of its parents should be."""
    d = directory
    while d and not os.path.exists(d):
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
    if d and not os.path.isdir(d):
        return f"{d} is not a directory"
    return None


def atomic_write(path: str, data: bytes) -> None:
    """Write all of ``data`` to ``path`` or leave ``path`` as it was.

    Raises ``SourceError`` (one located line) when it cannot.
    """
    shown = path
    if os.path.islink(path):
        path = os.path.realpath(path)  # update the file a link points to, keep the link
    if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
        # a FIFO or a device: replacing it with a file would lose it
        raise SourceError(shown, 1, 1, "cannot write: not a regular file")
    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = None
    tmp = None
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".autograph-", suffix=".tmp", dir=directory)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise SourceError(shown, 1, 1, f"cannot write: {_blocker(directory) or _os_message(e)}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


# -- .gitignore-style patterns ------------------------------------------------------


def _translate(pattern: str) -> str:
    out = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i) and i + 2 == n:
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            j = pattern.find("]", i + 2)
            if j < 0:
                out.append(re.escape(c))
                i += 1
            else:
                body = pattern[i + 1:j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j + 1
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


class IgnoreRules:
    """The patterns of one ``.gitignore`` file (or of ``--exclude``), matched
    against paths relative to ``base``."""

    def __init__(self, base: str, lines):
        self.base = os.path.abspath(base)
        self.rules: list[tuple[re.Pattern, bool, bool]] = []  # regex, negated, dir_only
        for raw in lines:
            line = raw.rstrip("\n").rstrip("\r")
            if not line.strip() or line.startswith("#"):
                continue
            if not line.endswith("\\ "):
                line = line.rstrip()
            negated = line.startswith("!")
            if negated:
                line = line[1:]
            elif line.startswith("\\!") or line.startswith("\\#"):
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            if not line:
                continue
            anchored = "/" in line
            line = line.lstrip("/")
            regex = _translate(line)
            if not anchored:
                regex = "(?:.*/)?" + regex
            self.rules.append((re.compile(f"^{regex}$", re.DOTALL), negated, dir_only))

    @classmethod
    def from_file(cls, path: str) -> "IgnoreRules | None":
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return cls(os.path.dirname(path), f.readlines())
        except OSError:
            return None

    def decide(self, abspath: str, is_dir: bool) -> bool | None:
        """True: ignored; False: re-included by ``!``; None: no rule matched."""
        rel = os.path.relpath(abspath, self.base)
        if rel.startswith(".."):
            return None
        rel = rel.replace(os.sep, "/")
        verdict = None
        for regex, negated, dir_only in self.rules:
            if dir_only and not is_dir:
                continue
            if regex.match(rel):
                verdict = not negated
        return verdict


def _git_root(start: str) -> str | None:
    d = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def _ignored(git: list[IgnoreRules], excl: IgnoreRules | None, abspath: str, is_dir: bool) -> bool:
    verdict = False
    for rules in git:  # deeper .gitignore files come later and win
        v = rules.decide(abspath, is_dir)
        if v is not None:
            verdict = v
    if excl is not None:  # --exclude has the last word
        v = excl.decide(abspath, is_dir)
        if v is not None:
            verdict = v
    return verdict


def discover(paths, *, exclude=(), gitignore: bool = True, skip_dirs=(), default_excludes: bool = True,
             skipped: list | None = None, origins: dict | None = None):
    """Yield ``(path, error)`` pairs in a stable order: the Python files the
    arguments name (``error`` None) and the arguments that name nothing
    (``error`` a ``SourceError``). Files named explicitly are always taken;
    ``exclude``, ``.gitignore`` and the default excludes apply to what
    directories contain, as ``skip_dirs`` (e.g. the output directory of a
    conversion inside its input). What is skipped is appended to
    ``skipped`` as ``(path, reason)``; ``origins`` maps each file to the
    argument that named it."""
    seen = set()
    skip = frozenset(os.path.realpath(d) for d in skip_dirs)
    walk = _Walk(exclude, gitignore, skip, default_excludes, skipped if skipped is not None else [])
    for arg in paths:
        if arg == STDIN:
            yield arg, None
            continue
        if os.path.isdir(arg):
            for path in walk.walk(arg):
                key = os.path.realpath(path)
                if key not in seen:
                    seen.add(key)
                    if origins is not None:
                        origins[path] = arg
                    yield path, None
        elif os.path.exists(arg):
            key = os.path.realpath(arg)
            if key not in seen:
                seen.add(key)
                if origins is not None:
                    origins[arg] = arg
                yield arg, None
        else:
            yield arg, SourceError(arg, 1, 1, "no such file or directory")


def _reason(excl, abspath: str, is_dir: bool) -> str:
    return "--exclude" if excl is not None and excl.decide(abspath, is_dir) else ".gitignore"


def _is_package(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "__init__.py"))


class _Walk:
    def __init__(self, exclude, gitignore: bool, skip, default_excludes: bool, skipped: list):
        self.exclude, self.gitignore, self.skip = exclude, gitignore, skip
        self.default_excludes, self.skipped = default_excludes, skipped

    def walk(self, top: str):
        top_abs = os.path.abspath(top)
        excl = IgnoreRules(top_abs, self.exclude) if self.exclude else None
        git: list[IgnoreRules] = []
        if self.gitignore:
            root = _git_root(top_abs)
            if root is not None:
                # .gitignore files from the repository root down to above ``top``
                # (``top``'s own is read by _dir).
                d = os.path.dirname(top_abs) if top_abs != root else None
                chain = []
                while d is not None:
                    chain.append(d)
                    if d == root:
                        break
                    parent = os.path.dirname(d)
                    d = parent if parent != d else None
                for d in reversed(chain):
                    rules = IgnoreRules.from_file(os.path.join(d, ".gitignore"))
                    if rules is not None:
                        git.append(rules)
        yield from self._dir(top, top_abs, git, excl)

    def _dir(self, shown: str, abspath: str, git, excl):
        if self.gitignore:
            rules = IgnoreRules.from_file(os.path.join(abspath, ".gitignore"))
            if rules is not None:
                git = git + [rules]
        try:
            entries = sorted(os.scandir(abspath), key=lambda e: e.name)
        except OSError:
            return
        in_package = any(e.name == "__init__.py" for e in entries)
        dirs = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                continue
            child_abs = os.path.join(abspath, entry.name)
            child = os.path.join(shown, entry.name)
            if is_dir:
                if self.skip and os.path.realpath(child_abs) in self.skip:
                    continue
                if _ignored(git, excl, child_abs, True):
                    self.skipped.append((child + os.sep, _reason(excl, child_abs, True)))
                    continue
                if (self.default_excludes and (entry.name in DEFAULT_EXCLUDED_DIRS or entry.name.endswith(".egg-info"))
                        and not in_package and not _is_package(child_abs)):
                    self.skipped.append((child + os.sep, "default exclude"))
                    continue
                dirs.append((child, child_abs))
            elif entry.name.endswith(".py"):
                try:
                    if not entry.is_file():  # a FIFO, socket or device named *.py
                        continue
                except OSError:
                    continue
                if _ignored(git, excl, child_abs, False):
                    self.skipped.append((child, _reason(excl, child_abs, False)))
                    continue
                yield child
        for child, child_abs in dirs:
            yield from self._dir(child, child_abs, git, excl)


def output_targets(files, origins: dict, output: str) -> dict:
    """Where ``convert -o OUTPUT`` writes each file (the layout rule):

    - a file named as an argument: ``OUTPUT/<its name>``;
    - a directory argument: what it holds, at the same paths relative to
      it, under ``OUTPUT``; a directory that is a package (holds
      ``__init__.py``) keeps its own name: ``convert src -o out`` and
      ``convert src/mypkg -o out`` both write ``out/mypkg/__init__.py``.

    The layout depends on the arguments alone, never on which other files
    sit beside them."""
    targets = {}
    for f in files:
        arg = origins.get(f, f)
        if os.path.isdir(arg):
            base = os.path.abspath(arg)
            if _is_package(base):
                base = os.path.dirname(base)
        else:
            base = os.path.dirname(os.path.abspath(arg))
        targets[f] = os.path.join(output, os.path.relpath(os.path.abspath(f), base))
    return targets


def common_root(paths) -> str:
    """The deepest directory holding every path (a file's own directory for
    one file)."""
    dirs = [os.path.dirname(os.path.abspath(p)) for p in paths]
    if not dirs:
        return os.getcwd()
    return os.path.commonpath(dirs)

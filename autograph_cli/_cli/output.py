"""What the CLI prints: errors, diffs, highlighted code, a progress bar.

Colour only on a terminal, never when ``NO_COLOR`` is set (to anything but
the empty string, https://no-color.org), always with ``FORCE_COLOR`` or
``--color``. rich is imported only when something is drawn in colour.
"""
from __future__ import annotations

import difflib
import os
import sys

__all__ = ["Progress", "colored_diff", "echo_err", "print_code", "unified_diff", "use_color"]


def use_color(stream, option: bool | None = None) -> bool:
    if option is not None:
        return option
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def echo_err(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def unified_diff(before: str, after: str, path: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"{path}\t(original)",
        tofile=f"{path}\t(converted)",
        n=3,
    )
    out = []
    for line in lines:
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)


_RESET = "\033[0m"


def colored_diff(diff: str) -> str:
    out = []
    for line in diff.splitlines(keepends=True):
        body = line.rstrip("\n")
        end = line[len(body):]
        if line.startswith(("+++", "---")):
            out.append(f"\033[1m{body}{_RESET}{end}")
        elif line.startswith("@@"):
            out.append(f"\033[36m{body}{_RESET}{end}")
        elif line.startswith("+"):
            out.append(f"\033[32m{body}{_RESET}{end}")
        elif line.startswith("-"):
            out.append(f"\033[31m{body}{_RESET}{end}")
        else:
            out.append(line)
    return "".join(out)


def print_code(code: str, color: bool, stream=None) -> None:
    stream = stream or sys.stdout
    if not color:
        stream.write(code if code.endswith("\n") or not code else code + "\n")
        stream.flush()
        return
    from rich.console import Console
    from rich.syntax import Syntax

    console = Console(file=stream, force_terminal=True, no_color=False, highlight=False, soft_wrap=True)
    console.print(Syntax(code.rstrip("\n"), "python", theme="monokai", background_color="default", word_wrap=False))


class Progress:
    """A rich progress bar on stderr for long runs, or nothing.

    Off when stderr is not a terminal, under pre-commit (``PRE_COMMIT`` set),
    with ``NO_COLOR``-independent ``--no-progress``, and for a few files.
    """

    THRESHOLD = 16

    def __init__(self, total: int, label: str, enabled: bool | None = None):
        if enabled is None:
            enabled = (
                total >= self.THRESHOLD
                and sys.stderr.isatty()
                and not os.environ.get("PRE_COMMIT")
                and os.environ.get("TERM") != "dumb"
            )
        self._bar = None
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn

            console = Console(file=sys.stderr, no_color=bool(os.environ.get("NO_COLOR")))
            self._bar = RichProgress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                console=console, transient=True,
            )
            self._task = self._bar.add_task(label, total=total)

    def __enter__(self):
        if self._bar is not None:
            self._bar.start()
        return self

    def advance(self) -> None:
        if self._bar is not None:
            self._bar.advance(self._task)

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.stop()

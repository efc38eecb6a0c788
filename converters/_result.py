"""What a conversion returns: code, a line map, a report and diagnostics."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Diagnostic:
    """One located message about the user's code."""

    filename: str
    line: int
    col: int
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.col}: {self.code} {self.message}"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class FunctionReport:
    """Whether one function was converted, and if not, why."""

    qualname: str
    line: int
    col: int
    converted: bool
    reason: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ConversionResult:
    """The converted module.

    ``line_map[i]`` is the original line of generated line ``i + 1``.
    """

    filename: str
    code: str
    line_map: list[int]
    report: list[FunctionReport] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(r.converted for r in self.report)

    def unconverted(self) -> list[FunctionReport]:
        return [r for r in self.report if not r.converted]

    def original_line(self, generated_line: int) -> int:
        if 1 <= generated_line <= len(self.line_map):
            return self.line_map[generated_line - 1]
        return generated_line


class ConversionError(Exception):
    """Input that cannot be converted at all (a syntax error, say)."""

    def __init__(self, filename: str, line: int, col: int, message: str):
        super().__init__(f"{filename}:{line}:{col}: {message}")
        self.filename = filename
        self.line = line
        self.col = col
        self.message = message

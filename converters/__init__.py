"""Source-to-source conversion of Python control flow (libcst only).

Public surface: ``convert`` and the result/diagnostic types. Everything else
is private to the package.
"""
from converters._result import (
    ConversionError,
    ConversionResult,
    Diagnostic,
    FunctionReport,
)
from converters.pipeline import convert

__all__ = ["convert", "ConversionError", "ConversionResult", "Diagnostic", "FunctionReport"]

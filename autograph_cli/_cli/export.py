"""``autograph export PATH::FUNC --arg SPEC ... -o model.onnx``: trace a
function with the numpy runtime and write it as an ONNX model (checked with
onnx.checker, full_check). ``autograph export SAVED_MODEL_DIR -o model.onnx``
exports a signature of a saved model (``--signature``, default
serving_default).

Exit codes: 0 written; 1 the model was built but fails the ONNX checker;
2 bad input (path, spec, tracing error) or a graph that is not exportable,
as one located line ``path:line:col: message``.
"""
from __future__ import annotations

import os
import re
import sys

from autograph_cli._cli.graph import _Bad, _load_module, _resolve, _user_location, parse_spec

__all__ = ["export_onnx"]


def _err(line):
    sys.stderr.write(line.rstrip("\n") + "\n")
    sys.stderr.flush()


def _located(e, path, what):
    message = str(e).strip().splitlines()[0] if str(e).strip() else ""
    line = _user_location(e, path)
    m = re.match(r"^(.*?):(\d+):\s*(.*)$", message)
    if m and os.path.abspath(m.group(1)) == os.path.abspath(path):
        line, message = int(m.group(2)), m.group(3)
    return f"{path}:{line}:1: {what}: {type(e).__name__}: {message}"


def _trace(target, arg_specs):
    """(concrete function, path) or raises _Bad with the located line."""
    path, qualname = target.rsplit("::", 1)
    from autograph_cli._cli.files import SourceError, read_source

    try:
        read_source(path)
        specs = [parse_spec(s) for s in arg_specs]
    except SourceError as e:
        raise _Bad(str(e)) from None
    except _Bad as e:
        raise _Bad(f"{path}:1:1: {e}") from None
    try:
        module = _load_module(path)
    except SystemExit as e:
        raise _Bad(f"{path}:{_user_location(e, path)}:1: importing it exited (SystemExit: {e.code!r})") from None
    except SyntaxError as e:
        raise _Bad(f"{path}:{e.lineno or 1}:{e.offset or 1}: {e.msg}") from None
    except Exception as e:
        raise _Bad(_located(e, path, "importing failed")) from None
    fn = _resolve(module, qualname, path)
    try:
        return fn.get_concrete_function(*specs), path
    except SystemExit as e:
        raise _Bad(f"{path}:{_user_location(e, path)}:1: tracing {qualname} exited (SystemExit: {e.code!r})") from None
    except Exception as e:
        raise _Bad(_located(e, path, f"tracing {qualname} failed")) from None


def _from_saved_model(export_dir, signature):
    try:
        from autograph_cli import saved_model
    except ImportError:
        raise _Bad(f"{export_dir}:1:1: saved models are not available in this version") from None
    try:
        obj = saved_model.load(export_dir)
    except Exception as e:
        raise _Bad(f"{export_dir}:1:1: cannot load the saved model: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}") from None
    sigs = getattr(obj, "signatures", None) or {}
    if signature not in sigs:
        raise _Bad(f"{export_dir}:1:1: no signature {signature!r} (available: {', '.join(sorted(sigs)) or 'none'})")
    fn = sigs[signature]
    for attr in ("concrete_function", "_concrete", "_cf"):
        inner = getattr(fn, attr, None)
        if inner is not None and hasattr(inner, "graph"):
            fn = inner
            break
    if not (hasattr(fn, "graph") and hasattr(fn, "inputs") and hasattr(fn, "outputs")):
        raise _Bad(f"{export_dir}:1:1: signature {signature!r} has no graph to export")
    return fn, export_dir


def export_onnx(target, arg_specs, output, opset=None, signature="serving_default", check=True):
    try:
        from autograph_cli.export import _onnx

        _onnx._load()
    except ImportError as e:
        _err(f"autograph: {e}")
        return 2
    try:
        if os.path.isdir(target):
            cf, where = _from_saved_model(target, signature)
        elif "::" not in target:
            _err(f"{target}:1:1: expected PATH::FUNC (e.g. samples/collatz.py::collatz) or a saved model directory")
            return 2
        else:
            cf, where = _trace(target, arg_specs)
    except _Bad as e:
        _err(str(e))
        return 2
    if os.path.isdir(output):
        _err(f"{output}:1:1: -o needs a file; this is a directory")
        return 2
    try:
        model, outs, extra = _onnx.lower(cf, opset)
    except _onnx.NotExportableError as e:
        msg = str(e)
        if not re.match(r"^.*?:\d+: ", msg):
            msg = f"{where}:1: {msg}"
        # path:line: message -> path:line:1: message
        msg = re.sub(r"^(.*?:\d+): ", r"\1:1: ", msg, count=1)
        _err(msg.splitlines()[0])
        return 2
    if check:
        try:
            _onnx.onnx.checker.check_model(model, full_check=True)
        except Exception as e:  # noqa: BLE001 - a bug of ours, reported in one line
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            _err(f"{where}:1:1: the exported model fails the ONNX checker: {first}")
            return 1
    from autograph_cli._cli.files import SourceError, atomic_write

    try:
        atomic_write(output, model.SerializeToString())
    except SourceError as e:
        _err(str(e))
        return 2
    ins = ", ".join(i.name for i in model.graph.input)
    note = f" (+ {len(extra)} variable output{'s' * (len(extra) != 1)}: {', '.join(extra)})" if extra else ""
    sys.stdout.write(f"wrote {output}: opset {model.opset_import[0].version}, inputs [{ins}], outputs [{', '.join(outs)}]{note}\n")
    return 0

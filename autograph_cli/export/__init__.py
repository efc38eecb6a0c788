"""Export traced functions to ONNX (run them with onnxruntime).

    import autograph_cli.tf as tf
    from autograph_cli.export import to_onnx

    model = to_onnx(f, "f.onnx", args=(tf.TensorSpec([None], tf.int32),))

``to_onnx(fn_or_concrete, path=None, opset=None, *, args=None, input_signature=None)``
takes a ConcreteFunction, or a ``tf.function`` together with ``args`` (values
or TensorSpecs to trace it with; or its own input_signature). It returns the
``onnx.ModelProto`` (checked with ``onnx.checker.check_model(full_check=True)``)
and writes it to ``path`` when given.

Inputs are the concrete function's placeholders (unknown dimensions become
symbolic dims), outputs its flat outputs ``output_0``, ``output_1``, ...
Variables the function reads are initializers holding their value at export
time; for each Variable the function assigns, the model has one more output,
named ``<variable name>:new`` (without ``:0``), holding the variable's value after the call
(the caller stores it back). Print and Assert ops are dropped. Ops without an
ONNX lowering (see ``not_exportable_ops()``) make the export fail with one
``NotExportableError`` naming the op and the user's source line.
"""
from __future__ import annotations

from ._onnx import DEFAULT_OPSET, LOWERINGS, NotExportableError

__all__ = ["to_onnx", "NotExportableError", "not_exportable_ops", "exportable_ops", "DEFAULT_OPSET"]


def _concrete(fn, args, kwargs, input_signature):
    from ..runtime.function import ConcreteFunction

    if isinstance(fn, ConcreteFunction):
        return fn
    get = getattr(fn, "get_concrete_function", None)
    if get is None:
        raise TypeError(f"to_onnx expects a tf.function or a ConcreteFunction, got {type(fn).__name__}")
    if input_signature is not None:
        return get(*input_signature)
    if args is None and not kwargs:
        return get()
    return get(*(args or ()), **(kwargs or {}))


def to_onnx(fn, path=None, opset=None, *, args=None, kwargs=None, input_signature=None, check=True):
    """The ONNX model of a traced function (see the module docstring)."""
    from . import _onnx

    cf = _concrete(fn, args, kwargs, input_signature)
    model, _, _ = _onnx.lower(cf, opset)
    if check:
        _onnx.onnx.checker.check_model(model, full_check=True)
    if path is not None:
        import os

        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(model.SerializeToString())
        os.replace(tmp, path)
    return model


def exportable_ops():
    """Registered ops an exported graph may hold (Const as initializers; PrintV2
    and Assert are left out of the model)."""
    return sorted(set(LOWERINGS) | {"Const", "PrintV2", "Assert"})


def not_exportable_ops():
    """Registered ops that have no ONNX lowering."""
    from ..runtime import ops
    import autograph_cli.tf  # noqa: F401 - registers every op module

    ok = set(exportable_ops())
    return sorted(n for n in ops.REGISTRY if n not in ok)

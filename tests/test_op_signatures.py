"""Every op declares its tensor inputs and attributes (OpDef.sig), its kernel
takes exactly those, and in strict mode a node that does not match is refused
when it is built. The whole suite runs in strict mode (tests/conftest.py sets
AUTOGRAPH_STRICT_OPS=1), so every node and eager op call the tests make
conforms to its op's declaration, attribute kinds included."""
from __future__ import annotations

import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import autograph_cli.tf as tf
from autograph_cli.runtime import control_flow, data, effects, grad_ops, opdef, tensor_array, variables  # noqa: F401
from autograph_cli.runtime import ops
from autograph_cli.runtime.graph import Graph
from autograph_cli.runtime.opdef import KINDS, OpSignatureError, REGISTRY, Signature


def test_the_suite_runs_the_strict_check():
    assert os.environ.get("AUTOGRAPH_STRICT_OPS") == "1"
    assert opdef.STRICT


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_op_is_declared_and_its_kernel_takes_the_declaration(name):
    op = REGISTRY[name]
    sig = op.sig
    assert isinstance(sig, Signature), f"{name} has no declared signature"
    for attr, (kind, _default, _nullable) in sig.attrs.items():
        assert kind in KINDS, (name, attr, kind)
    if op.kernel is None:  # (If/While/For: their regions are the computation)
        return
    params = inspect.signature(op.kernel)
    # the fewest inputs with every attribute, and every input with the required attributes
    fewest = [object()] * sig.min_inputs
    most = [object()] * (len(sig.inputs) + (1 if sig.variadic else 0))
    for args, attrs in ((fewest, sig.attrs), (most, sig.required)):
        try:
            params.bind(*args, **{a: object() for a in attrs})
        except TypeError as e:
            pytest.fail(f"{name}{sig!r}: the kernel{params} cannot take {len(args)} inputs and {sorted(attrs)}: {e}")


def _node(op, inputs, attrs):
    """`op` staged into a fresh graph over `inputs` float placeholders."""
    g = Graph("sig")
    prev, ops.ctx.graph = ops.ctx.graph, g
    try:
        ins = [g.placeholder(tf.float32, [2, 2], f"x{i}") for i in range(inputs)]
        return ops.apply1(op, ins, attrs)
    finally:
        ops.ctx.graph = prev


def test_a_conforming_node_is_built():
    out = _node(ops.MATMUL, 2, {"transpose_a": True})
    assert out.shape.as_list() == [2, 2]
    assert _node(ops.ADD, 2, {}).dtype is tf.float32


@pytest.mark.parametrize(
    "op, n, attrs, message",
    [
        (ops.MATMUL, 2, {"transpose_c": True}, "unknown attributes ['transpose_c']"),
        (ops.CAST, 1, {}, "without required attributes ['dtype']"),
        (ops.ADD, 3, {}, "built with 3 inputs"),
        (ops.ADD, 1, {}, "built with 1 inputs"),
        (ops.CONCAT, 2, {"axis": "0"}, "attribute axis='0' is not of kind int"),
        (ops.TRANSPOSE, 1, {"perm": (1.5, 0)}, "is not of kind ints"),
    ],
)
def test_a_node_that_does_not_match_its_declaration_is_refused(op, n, attrs, message):
    with pytest.raises(OpSignatureError, match=message.replace("[", r"\[").replace("]", r"\]")):
        _node(op, n, attrs)


def test_eager_calls_are_checked_in_strict_mode():
    x = tf.constant(np.eye(2, dtype=np.float32))
    with pytest.raises(OpSignatureError, match="transpose_c"):
        ops.apply1(ops.MATMUL, [x, x], {"transpose_c": True})


@pytest.mark.parametrize("strict", ["1", "0"])
def test_the_check_is_the_strict_modes_only(strict):
    """AUTOGRAPH_STRICT_OPS=1 (this suite) checks nodes; users run without
    the check, which cost about 2% of tracing time."""
    code = (
        "import autograph_cli.tf as tf\n"
        "from autograph_cli.runtime import ops, opdef\n"
        "@tf.function\n"
        "def f(x):\n"
        "    return ops.apply1(ops.MATMUL, [x, x], {'transpose_a': True, 'transpose_c': True})\n"
        "try:\n"
        "    print('built', f(tf.ones([2, 2])).numpy().tolist())\n"
        "except opdef.OpSignatureError as e:\n"
        "    print('refused:', e)\n"
    )
    env = dict(os.environ, AUTOGRAPH_STRICT_OPS=strict)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    if strict == "1":
        assert "refused: op MatMul(a, b, *, transpose_a: bool = False, transpose_b: bool = False) built with " \
               "unknown attributes ['transpose_c']" in out.stdout
    else:
        assert "built [[2.0, 2.0], [2.0, 2.0]]" in out.stdout


@pytest.mark.parametrize(
    "text, error",
    [
        ("x, *, axis", "needs a kind"),
        ("x, *, axis: nonsense", "needs a kind"),
        ("x=1", "inputs are plain parameters"),
        ("x, **kw", "inputs are plain parameters"),
        ("x, (", "bad op signature"),
    ],
)
def test_a_bad_declaration_is_refused_when_the_op_is_defined(text, error):
    with pytest.raises(ValueError, match=error):
        Signature(text)


def test_declarations_parse_defaults_and_optional_inputs():
    sig = Signature("x, shape_t=None, *, shape: ints = None, keep: bool = False, dtype: dtype")
    assert sig.inputs == ("x", "shape_t") and sig.min_inputs == 1 and sig.variadic is None
    assert sig.required == {"dtype"} and sig.names == {"shape", "keep", "dtype"}
    assert sig.default("keep") is False and sig.default("dtype") is None
    v = Signature("*values, axis: int")
    assert v.inputs == () and v.variadic == "values" and v.required == {"axis"}

"""The runtime's ops, declared once each in the op table (runtime.opdef).

Every op is one `define(name, infer, kernel | expr, emit=..., sig=...)`: its
name, its inputs and attributes (`sig`, checked on every node built), its
shape/dtype rule (`infer`), its numpy kernel, how the compiler writes it, and
(hanging off the same OpDef) its gradient and the lowerings other engines
attach with `register_lowering(target, *names)` ("onnx": autograph_cli.export,
"jax": autograph_cli.jax). Inputs are tensors; attributes (`attrs`) are static
values fixed while tracing -- the public function that builds an op says which
of its arguments become attributes, declares those that must be static
(`@shape_args.static_args`) and checks them with `shape_args`.

Families:
    _core       apply (run eagerly or stage into the graph being traced), the
                shared rules (broadcasting, same-dtype operands, conversion of
                Python operands next to a tensor)
    math        arithmetic, comparisons, logic, elementwise functions, matmul,
                cast, reductions
    array       shapes, reshape/transpose/concat/stack, gather/scatter, slicing
                (tensor[...]), fill/zeros/one_hot, sort/top_k, segments, pad
    strings     tf.strings
    random      random ops (stateful and stateless)
    linalg      tf.linalg
    nn          tf.nn (fused ops with their gradients)
    shape_args  reading size/shape/axis arguments (static when they can be)

Ops of other subsystems are declared next to them: control flow (If, While,
Assert), TensorArrays, Variables, datasets, print/py_function, and the helper
ops of the gradients (grad_ops). This package re-exports the names the rest of
the runtime and the tf facade use (`from autograph_cli.runtime import ops`).
"""
# ruff: noqa: F401 - this module re-exports the families' names
from __future__ import annotations

from ..context import ctx
from ..errors import DTypeMismatchError, InvalidArgumentError
from ..opdef import CONST, REGISTRY, define, lowering, OpDef, register_lowering
from ..shapes import as_shape, TensorShape
from ..tensor import constant, convert_to_tensor, EagerTensor, SymbolicTensor, Tensor
from ._core import (
    apply, apply1, broadcast_shapes, _NOATTR, _binary_infer, _check_same, _convert_pair, _inf_same, _t,
)
from .math import (
    ABS, ADD, ALL, ANY, ARGMAX, ARGMIN, BAND, BOR, BXOR, CAST, CEIL, COS, CUMSUM, DYN_REDUCE, EQUAL, EXP, FLOOR,
    FLOORDIV, FLOORMOD, GREATER, GREATEREQ, IDENTITY, INVERT, LAND, LESS, LESSEQ, LNOT, LOG, LOR, MATMUL, MAX,
    MAXIMUM, MEAN, MIN, MINIMUM, MUL, NEG, NOTEQUAL, POW, PROD, REALDIV, RECIPROCAL, RELU, ROUND, RSQRT,
    SIGMOID, SIGN, SIN, SOFTPLUS, SQDIFF, SQRT, SQUARE, SUB, SUM, TANH, abs, add, add_n, argmax, argmin,
    bitwise_and, bitwise_or, bitwise_xor, cast, ceil, cos, divide, equal, exp, floor, floordiv, floormod,
    greater, greater_equal, identity, invert, less, less_equal, log, logical_and, logical_not, logical_or,
    logical_xor, matmul, maximum, minimum, mod, multiply, negative, not_equal, pow, reciprocal, reduce_all,
    reduce_any, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, relu, round, rsqrt, sigmoid, sign,
    sin, softplus, sqrt, square, squared_difference, subtract, tanh, truediv, _unary,
)
from .array import (
    CONCAT, ENSURE_SHAPE, EXPAND, EYE, FILL, GATHER, ONEHOT, ONES, ONES_LIKE, PACK, RANGE, RANK, RESHAPE,
    SELECT, SHAPE, SIZE, SQUEEZE, STRIDED_SLICE, TILE, TRANSPOSE, UNPACK, WHERE_IDX, ZEROS, ZEROS_LIKE, concat,
    cumsum, ensure_shape, expand_dims, eye, fill, gather, getitem, one_hot, ones, ones_like, range, rank,
    reshape, shape, size, slice_index, squeeze, stack, tile, transpose, unstack, where, zeros, zeros_like,
)
from .strings import AS_STRING, STRJOIN, as_string, string_join
from . import strings as string_ops  # noqa: E402 - tf.strings' elementwise ops
from .random import (
    DROPOUT, RANDOM_NORMAL, RANDOM_UNIFORM, dropout, random_normal, random_uniform, set_random_seed,
    _RandomState, _rng_for,
)
from . import linalg, nn, shape_args  # noqa: E402,F401 - the other families (they register their ops)

import sys as _sys  # noqa: E402

from .. import tensor as _tensor  # noqa: E402

# Tensor's operators (+, <, [], ...) build ops; tensor sits below this package,
# so the package hands itself over instead of tensor importing it.
_tensor.install_ops(_sys.modules[__name__])

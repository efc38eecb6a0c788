"""tf.random.Generator: random numbers drawn from a state held in a Variable.

Each draw reads the state ([key, counter], int64), computes a stateless
sample from it (ops.random's StatelessRandom, a function of the seed) and
advances the counter by one. Because the state is a variable, a traced
function draws fresh numbers at every call and on every iteration of a staged
loop, in program order, and two generators from one seed give the same
sequence (the numbers are numpy's, not TensorFlow's Philox bits).
"""
from __future__ import annotations

import enum
import os

import numpy as np

from . import dtypes as dt
from .ops import random as _random
from .ops._core import _t, apply1
from .ops.array import stack, zeros_like
from .ops.shape_args import const_value
from .tensor import convert_to_tensor
from .variables import Variable

__all__ = ["Algorithm", "Generator", "get_global_generator", "set_global_generator"]


class Algorithm(enum.Enum):
    """tf.random.Algorithm: the names TensorFlow's generators accept as `alg`
    (the numbers come from numpy whichever is named)."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3

_MASK = 0xFFFFFFFFFFFFFFFF
_I64 = np.iinfo(np.int64)


def _key_of(seed):
    """An int64 key from a Python int seed (any size), well mixed."""
    seed = int(seed) & _MASK
    x = np.random.default_rng([seed, 0x6E4]).integers(_I64.min, _I64.max, dtype=np.int64, endpoint=True)
    return int(x)


class Generator:
    """A random number generator whose state ([key, counter], int64) lives in a tf.Variable."""

    _tf_trackable = True  # tf.train.Checkpoint / SavedModel save and restore the state

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state = copy_from.state.read_value()
        if state is None:
            raise ValueError("Generator needs a state: use Generator.from_seed(seed) or from_non_deterministic_state()")
        state = convert_to_tensor(state, dtype=dt.int64)
        if state.shape.rank is not None and state.shape.as_list() != [2]:
            raise ValueError(f"Generator state must have shape [2] (key, counter), got {state.shape}")
        self._alg = alg
        self._state = Variable(state, trainable=False, name="generator_state", dtype=dt.int64)

    # constructors --------------------------------------------------------------
    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose sequence is fixed by an integer seed."""
        return cls(state=np.array([_key_of(seed), 0], np.int64), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        return cls.from_seed(int.from_bytes(os.urandom(8), "little"), alg=alg)

    @classmethod
    def from_state(cls, state, alg=None):
        """A generator starting from a given [key, counter] state."""
        return cls(state=state, alg=alg)

    # state -----------------------------------------------------------------------
    @property
    def state(self):
        """The int64 Variable ([key, counter]) the generator draws from."""
        return self._state

    @property
    def algorithm(self):
        """The algorithm named at creation (numbers come from numpy whatever it is)."""
        return self._alg

    def reset(self, state):
        """Sets the state to `state` ([key, counter])."""
        self._state.assign(convert_to_tensor(state, dtype=dt.int64))

    def reset_from_seed(self, seed):
        """Sets the state as from_seed(seed) would."""
        self._state.assign(np.array([_key_of(seed), 0], np.int64))

    def skip(self, delta):
        """Advances the state as `delta` draws would."""
        self._state.assign_add(stack([_t(0, dtype=dt.int64), _t(delta, dtype=dt.int64)]))

    def _next_seed(self):
        """The state to draw from now; the counter moves on."""
        seed = self._state.read_value()
        self._state.assign_add(np.array([0, 1], np.int64))
        return seed

    # draws -------------------------------------------------------------------------
    def _draw(self, kind, shape, a, b, dtype):
        dtype = dt.as_dtype(dtype)
        fn = f"Generator.{kind}"
        shape_t = _random._shape_tensor(shape, fn)
        seed = self._next_seed()
        ca, cb = const_value(a), const_value(b)
        if ca is not None and cb is not None and not np.ndim(ca) and not np.ndim(cb):
            return apply1(_random.STATELESS, [shape_t, seed],
                          {"dtype": dtype, "kind": kind, "a": ca.item() if hasattr(ca, "item") else ca,
                           "b": cb.item() if hasattr(cb, "item") else cb})
        if dtype.is_integer:
            raise ValueError(f"{fn}: integer bounds must be scalars known while tracing")
        # bounds (or mean/stddev) known at run time, or tensors: scale a unit sample
        unit = apply1(_random.STATELESS, [shape_t, seed],
                      {"dtype": dtype, "kind": kind, "a": 0.0, "b": 1.0})
        a_t, b_t = _t(a, dtype=dtype), _t(b, dtype=dtype)
        return unit * (b_t - a_t) + a_t if kind == "uniform" else unit * b_t + a_t

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dt.float32, name=None):
        """Normally distributed numbers of the given shape."""
        return self._draw("normal", shape, mean, stddev, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dt.float32, name=None):
        """Normal numbers redrawn until within two standard deviations of the mean."""
        return self._draw("truncated", shape, mean, stddev, dtype)

    def uniform(self, shape, minval=0, maxval=None, dtype=dt.float32, name=None):
        """Uniform numbers in [minval, maxval) (integers need maxval)."""
        dtype = dt.as_dtype(dtype)
        if maxval is None:
            if dtype.is_integer:
                raise ValueError("Must specify maxval for integer dtype")
            maxval = 1
        return self._draw("uniform", shape, minval, maxval, dtype)

    def uniform_full_int(self, shape, dtype=dt.int64, name=None):
        """Integers drawn uniformly over the whole range of an integer dtype."""
        dtype = dt.as_dtype(dtype)
        info = np.iinfo(dtype.np)
        # [min, max): the largest value is never drawn (numpy's bound is exclusive)
        return self._draw("uniform", shape, int(info.min), int(info.max), dtype)

    def binomial(self, shape, counts, probs, dtype=dt.int32, name=None):
        """Binomial draws of `counts` trials with success probability `probs` (broadcast to the rightmost
        dimensions of `shape`)."""
        return _random.stateless_binomial(shape, self._next_seed(), counts, probs, output_dtype=dtype)

    def make_seeds(self, count=1):
        """`count` seeds for the stateless random ops: an int64 tensor of shape [2, count]."""
        keys = self.uniform_full_int([count], dt.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1):
        """`count` new, independent generators (this one advances)."""
        keys = self.uniform_full_int([count], dt.int64)
        return [Generator(state=stack([keys[i], _t(0, dtype=dt.int64)]), alg=self._alg) for i in range(count)]

    def __repr__(self):
        return f"<tf.random.Generator state={self._state.numpy() if self._state._value is not None else '?'}>"


_GLOBAL: list = []


def get_global_generator():
    """The global Generator (created, non-deterministically seeded, on first use)."""
    if not _GLOBAL:
        _GLOBAL.append(Generator.from_non_deterministic_state())
    return _GLOBAL[0]


def set_global_generator(generator):
    """Replaces the global Generator."""
    _GLOBAL[:] = [generator]


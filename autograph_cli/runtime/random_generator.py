"""tf.random.Generator: random numbers drawn from a state held in a Variable.

The state is TensorFlow's Philox state ([counter low 64 bits, counter high 64
bits, key], int64, shape [3]): a draw of n values computes TensorFlow's
numbers for that counter and key (runtime/philox.py) and moves the counter on
by 256 * n, as TensorFlow's kernels do, so `Generator.from_seed(s)` gives
TensorFlow's sequence. Because the state is a variable, a traced function
draws fresh numbers at every call and on every iteration of a staged loop,
in program order.
"""
from __future__ import annotations

import enum
import os

import numpy as np

from . import dtypes as dt
from . import philox as _philox
from .opdef import define
from .ops import random as _random
from .ops._core import _t, apply
from .ops.array import stack, zeros_like
from .shapes import TensorShape
from .tensor import convert_to_tensor
from .variables import Variable

__all__ = ["Algorithm", "Generator", "get_global_generator", "set_global_generator"]


class Algorithm(enum.Enum):
    """tf.random.Algorithm: the RNG algorithms TensorFlow names (this runtime draws with Philox)."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


_MASK = 0xFFFFFFFFFFFFFFFF
_STATE_SIZE = 3


def _alg_int(alg):
    if alg is None:
        return Algorithm.PHILOX.value
    if isinstance(alg, Algorithm):
        alg = alg.value
    if isinstance(alg, str):
        alg = {"philox": 1, "threefry": 2, "auto_select": 3}.get(alg.lower(), alg)
    if alg == Algorithm.THREEFRY.value:
        raise NotImplementedError("tf.random.Generator(alg='threefry') is not supported by this runtime: use "
                                  "'philox' (the default)")
    if alg not in (1, 3):
        raise ValueError(f"Unsupported algorithm id: {alg}")
    return Algorithm.PHILOX.value


def _int64(u):
    u &= _MASK
    return u - (1 << 64) if u >= 1 << 63 else u


def _state_from_seed(seed):
    """TensorFlow's create_rng_state: an integer seed cut into 64-bit words (a vector of
    integers taken as it is), padded with zeros to the state's size."""
    if isinstance(seed, (int, np.integer)):
        seed, words = int(seed), []
        for _ in range(_STATE_SIZE):
            words.append(seed & _MASK)
            seed >>= 64
    else:
        words = [int(w) for w in np.asarray(seed.numpy() if hasattr(seed, "numpy") else seed).reshape(-1)]
    words = (words + [0] * _STATE_SIZE)[:_STATE_SIZE]
    return np.array([_int64(w) for w in words], np.int64)


def _draw_infer(inputs, attrs):
    from .ops.shape_args import static_shape_of

    return [(attrs["dtype"], TensorShape(static_shape_of(inputs[0]))), (dt.int64, TensorShape([_STATE_SIZE]))]


def _draw_kernel(shape, state, dtype, kind, a, b):
    s = [int(w) & _MASK for w in np.asarray(state).reshape(-1)]
    counter, key = s[0] | s[1] << 64, s[2]
    values = _random.philox_values(kind, shape, dtype, key, counter, a, b)
    counter = (counter + _philox.STATE_SKIP_PER_OUTPUT * int(np.size(values))) & ((1 << 128) - 1)
    return values, np.array([_int64(counter), _int64(counter >> 64), _int64(key)], np.int64)


# (values, the state after the draw) from a Philox state
PHILOX_DRAW = define("StatefulPhiloxDraw", _draw_infer, _draw_kernel,
                     sig="shape, state, *, dtype: dtype, kind: str, a: scalar, b: scalar")


class Generator:
    """A random number generator whose Philox state ([counter, counter, key], int64) lives in a tf.Variable."""

    _tf_trackable = True  # tf.train.Checkpoint / SavedModel save and restore the state

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state, alg = copy_from.state.read_value(), copy_from.algorithm
        if state is None:
            raise ValueError("Generator needs a state: use Generator.from_seed(seed) or from_non_deterministic_state()")
        self._alg = _alg_int(alg)
        state = convert_to_tensor(state, dtype=dt.int64)
        if state.shape.rank is not None and state.shape.as_list() != [_STATE_SIZE]:
            raise ValueError(f"Generator state must have shape [{_STATE_SIZE}] (Philox: a 128-bit counter and a "
                             f"64-bit key), got {state.shape}")
        # (TensorFlow's attribute name: checkpoints key the state as `_state_var`)
        self._state_var = Variable(state, trainable=False, dtype=dt.int64)

    # constructors --------------------------------------------------------------
    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose sequence is fixed by an integer seed (TensorFlow's sequence for it)."""
        return cls(state=_state_from_seed(seed), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        return cls(state=np.frombuffer(os.urandom(8 * _STATE_SIZE), np.int64).copy(), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        """A generator starting from a given state."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        """A generator from a Philox key ([1]) and counter ([2])."""
        key = np.asarray(convert_to_tensor(key, dtype=dt.int64).numpy()).reshape(-1)
        counter = np.asarray(convert_to_tensor(counter, dtype=dt.int64).numpy()).reshape(-1)
        return cls(state=np.concatenate([counter, key]).astype(np.int64), alg=alg)

    # state -----------------------------------------------------------------------
    @property
    def state(self):
        """The int64 Variable holding the Philox state."""
        return self._state_var

    @property
    def algorithm(self):
        """The RNG algorithm's id (1: Philox)."""
        return self._alg

    @property
    def key(self):
        """The Philox key (the state's last word)."""
        return self._state_var[-1]

    def reset(self, state):
        """Sets the state to `state`."""
        self._state_var.assign(convert_to_tensor(state, dtype=dt.int64))

    def reset_from_seed(self, seed):
        """Sets the state as from_seed(seed) would."""
        self._state_var.assign(_state_from_seed(seed))

    def reset_from_key_counter(self, key, counter):
        """Sets the state from a Philox key and counter."""
        self._state_var.assign(Generator.from_key_counter(key, counter, self._alg).state.numpy())

    def skip(self, delta):
        """Advances the state as a draw of `delta` numbers would."""
        self._draw("full_int", [_t(delta, dtype=dt.int32)], 0, 0, dt.int32)

    # draws -------------------------------------------------------------------------
    def _draw(self, kind, shape, a, b, dtype):
        dtype = dt.as_dtype(dtype)
        fn = f"Generator.{kind}"
        shape_t = _random._shape_tensor(shape, fn)
        values, new_state = apply(PHILOX_DRAW, [shape_t, self._state_var.read_value()],
                                  {"dtype": dtype, "kind": kind, "a": a, "b": b})
        self._state_var.assign(new_state)
        return values

    def _next_seed(self):
        """A seed [2] for a stateless op, drawn from this generator (it advances)."""
        return self.make_seeds(1)[:, 0]

    def _unit(self, kind, shape, dtype):
        return self._draw(kind, shape, 0.0, 1.0, dtype)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dt.float32, name=None):
        """Normally distributed numbers of the given shape."""
        rnd = self._unit("normal", shape, dtype)
        return rnd * _t(stddev, dtype=rnd.dtype) + _t(mean, dtype=rnd.dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dt.float32, name=None):
        """Normal numbers redrawn until within two standard deviations of the mean."""
        rnd = self._unit("truncated", shape, dtype)
        return rnd * _t(stddev, dtype=rnd.dtype) + _t(mean, dtype=rnd.dtype)

    def uniform(self, shape, minval=0, maxval=None, dtype=dt.float32, name=None):
        """Uniform numbers in [minval, maxval) (integers need maxval; both None: the dtype's whole range)."""
        dtype = dt.as_dtype(dtype)
        if dtype.is_integer:
            if minval is None and maxval is None:
                return self.uniform_full_int(shape, dtype)
            if maxval is None or minval is None:
                raise ValueError("Must specify maxval for integer dtype")
            lo, hi = _random._scalar(minval, "Generator.uniform", "minval"), \
                _random._scalar(maxval, "Generator.uniform", "maxval")
            return self._draw("uniform", shape, int(lo), int(hi), dtype)
        rnd = self._unit("uniform", shape, dtype)
        lo = _t(0 if minval is None else minval, dtype=dtype)
        hi = _t(1 if maxval is None else maxval, dtype=dtype)
        return rnd * (hi - lo) + lo

    def uniform_full_int(self, shape, dtype=dt.int64, name=None):
        """Integers drawn uniformly over the whole range of an integer dtype."""
        return self._draw("full_int", shape, 0, 0, dt.as_dtype(dtype))

    def binomial(self, shape, counts, probs, dtype=dt.int32, name=None):
        """Binomial draws of `counts` trials with success probability `probs` (broadcast to the rightmost
        dimensions of `shape`)."""
        return _random.stateless_binomial(shape, self._next_seed(), counts, probs, output_dtype=dtype)

    def make_seeds(self, count=1):
        """`count` seeds for the stateless random ops: an int64 tensor of shape [2, count]."""
        keys = self.uniform_full_int([count], dt.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1):
        """`count` new, independent generators (keyed by full-range integers this one draws)."""
        keys = self.uniform_full_int([count], dt.int64)
        return [Generator(state=stack([_t(0, dtype=dt.int64), _t(0, dtype=dt.int64), keys[i]]), alg=self._alg)
                for i in range(count)]

    def __repr__(self):
        return (f"<tf.random.Generator state="
                f"{self._state_var.numpy() if self._state_var._value is not None else '?'}>")


_GLOBAL: list = []


def get_global_generator():
    """The global Generator (created, non-deterministically seeded, on first use)."""
    if not _GLOBAL:
        _GLOBAL.append(Generator.from_non_deterministic_state())
    return _GLOBAL[0]


def set_global_generator(generator):
    """Replaces the global Generator."""
    _GLOBAL[:] = [generator]


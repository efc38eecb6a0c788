"""Recurrent layers: SimpleRNN, LSTM, GRU, their cells, RNN(cell),
Bidirectional and TimeDistributed.

The time loop runs step by step in Python eagerly (so a GradientTape records
each step), and inside a trace (tf.function, fit, a functional model) as one
staged while loop over the time dimension (its length may be unknown), whose
gradient the runtime builds like any staged loop's. `unroll=True` traces the
steps one by one instead (the length must then be known).

Weights follow Keras: `kernel` (features, k * units), `recurrent_kernel`
(units, k * units), `bias`; LSTM gates in the order [i, f, c, o], GRU's in
[z, r, h] with `reset_after=True` (two bias rows) by default.
"""
from __future__ import annotations

from autograph_cli.runtime import dtypes as dt
from autograph_cli.runtime import ops
from autograph_cli.runtime.context import ctx
from autograph_cli.runtime.control_flow import while_loop
from autograph_cli.runtime.ops import array as array_ops
from autograph_cli.runtime.ops import nn as nn_ops
from autograph_cli.runtime.shapes import TensorShape
from autograph_cli.runtime.tensor import SymbolicTensor, Tensor
from autograph_cli.runtime.tensor_array import TensorArray

from . import activations, initializers
from ._layer import Layer, _take_regularizers

__all__ = ["SimpleRNNCell", "LSTMCell", "GRUCell", "StackedRNNCells", "RNN", "SimpleRNN", "LSTM", "GRU",
           "Bidirectional", "TimeDistributed"]


def _python_bool(training, what):
    if isinstance(training, Tensor):
        c = training.const if isinstance(training, SymbolicTensor) else training._value
        if c is None:
            raise NotImplementedError(f"{what} needs a Python (or constant) `training` value")
        return bool(c)
    return bool(training)


def _sizes(size):
    """A cell's state_size as a list of ints."""
    if isinstance(size, (list, tuple)):
        return [int(s) for s in size]
    if isinstance(size, TensorShape):
        return [int(size.dims[-1])]
    return [int(size)]


def _rate(value, name):
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"Invalid value received for argument `{name}`. Expected a float value between 0 and 1. "
                         f"Received: {name}={value}")
    return min(value, 1.0)


class _Cell(Layer):
    """What the built-in cells share: the weights' arguments, and the dropout
    masks, drawn once per call of the RNN layer (the same for every step)."""

    _gates = 1

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", dropout=0.0, recurrent_dropout=0.0,
                 **kwargs):
        _take_regularizers(self, kwargs, "kernel", "recurrent", "bias")
        kwargs.pop("implementation", None)
        seed = kwargs.pop("seed", None)
        super().__init__(**kwargs)
        self.units = int(units)
        if self.units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, "
                             f"got {units}.")
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.dropout = _rate(dropout, "dropout")
        self.recurrent_dropout = _rate(recurrent_dropout, "recurrent_dropout")
        self.seed = seed
        self._keras_untracked_masks = (None, None)

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self):
        return self.units

    def _build_kernels(self, input_shape):
        n = TensorShape(input_shape).dims[-1]
        if n is None:
            raise ValueError(f"The last dimension of the inputs to `{type(self).__name__}` should be defined. "
                             f"Found None. Full input shape received: {TensorShape(input_shape)}")
        k = self._gates * self.units
        self.kernel = self.add_weight("kernel", (n, k), initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight("recurrent_kernel", (self.units, k),
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)

    def build(self, input_shape):
        self._build_kernels(input_shape)
        self.bias = self.add_weight("bias", (self._gates * self.units,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def _prepare_dropout(self, x0, h0, training):
        """Draw this call's masks (or none): x0, h0 are a step's input and state."""
        if training is None or not _python_bool(training, type(self).__name__) or \
                not (self.dropout or self.recurrent_dropout):
            self._keras_untracked_masks = (None, None)
            return

        def mask(like, rate):
            if not rate:
                return None
            if rate >= 1.0:
                return ops.zeros_like(like)
            return nn_ops.dropout(ops.ones_like(like), rate, seed=self.seed)

        self._keras_untracked_masks = (mask(x0, self.dropout), mask(h0, self.recurrent_dropout))

    def _drop(self, x, h):
        dx, dh = self._keras_untracked_masks
        return (x if dx is None else x * dx), (h if dh is None else h * dh)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return [_zeros_state(inputs, batch_size, n, dtype or self.dtype) for n in _sizes(self.state_size)]

    def get_config(self):
        return {**super().get_config(), "units": self.units, "activation": self.activation,
                "use_bias": self.use_bias, "kernel_initializer": self.kernel_initializer,
                "recurrent_initializer": self.recurrent_initializer, "bias_initializer": self.bias_initializer,
                "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout, "seed": self.seed}


def _zeros_state(inputs, batch_size, n, dtype):
    if batch_size is None:
        d = inputs.shape.dims[0] if inputs.shape.dims is not None else None
        batch_size = d if d is not None else ops.shape(inputs)[0]
    return ops.zeros([batch_size, n], dtype=dtype)


class SimpleRNNCell(_Cell):
    """One step of a fully connected RNN: h = activation(x @ kernel + h @ recurrent_kernel + bias)."""

    def call(self, inputs, states, training=None):
        h = states[0] if isinstance(states, (list, tuple)) else states
        x, hd = self._drop(inputs, h)
        y = ops.matmul(x, self.kernel)
        if self.bias is not None:
            y = nn_ops.bias_add(y, self.bias)
        out = self.activation(y + ops.matmul(hd, self.recurrent_kernel))
        return out, [out]


class LSTMCell(_Cell):
    """One LSTM step; gates [i, f, c, o]; states [h, c]."""

    _gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, dropout=0.0, recurrent_dropout=0.0, **kwargs):
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
                         dropout, recurrent_dropout, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = bool(unit_forget_bias)

    @property
    def state_size(self):
        return [self.units, self.units]

    def build(self, input_shape):
        self._build_kernels(input_shape)
        self.bias = None
        if self.use_bias:
            init = self.bias_initializer
            if self.unit_forget_bias:
                u, base = self.units, self.bias_initializer

                def init(shape, dtype=None, **kwargs):  # (the forget gate's bias starts at one)
                    return ops.concat([base((u,), dtype=dtype), ops.ones((u,), dtype=dtype),
                                       base((2 * u,), dtype=dtype)], 0)
            self.bias = self.add_weight("bias", (4 * self.units,), initializer=init, regularizer=self.bias_regularizer,
                                                                                     constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs, states, training=None):
        h, c = states[0], states[1]
        x, hd = self._drop(inputs, h)
        z = ops.matmul(x, self.kernel) + ops.matmul(hd, self.recurrent_kernel)
        if self.bias is not None:
            z = nn_ops.bias_add(z, self.bias)
        zi, zf, zc, zo = array_ops.split(z, 4, axis=1)
        i = self.recurrent_activation(zi)
        f = self.recurrent_activation(zf)
        c = f * c + i * self.activation(zc)
        o = self.recurrent_activation(zo)
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self):
        return {**super().get_config(), "recurrent_activation": self.recurrent_activation,
                "unit_forget_bias": self.unit_forget_bias}


class GRUCell(_Cell):
    """One GRU step; gates [z, r, h]; with reset_after (the default) the reset
    gate applies after the recurrent matmul and the bias has two rows."""

    _gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 dropout=0.0, recurrent_dropout=0.0, reset_after=True, **kwargs):
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
                         dropout, recurrent_dropout, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = bool(reset_after)

    def build(self, input_shape):
        self._build_kernels(input_shape)
        shape = (2, 3 * self.units) if self.reset_after else (3 * self.units,)
        self.bias = self.add_weight("bias", shape, initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def call(self, inputs, states, training=None):
        h = states[0] if isinstance(states, (list, tuple)) else states
        x, hd = self._drop(inputs, h)
        xm = ops.matmul(x, self.kernel)
        if self.reset_after:
            rm = ops.matmul(hd, self.recurrent_kernel)
            if self.bias is not None:
                xm = nn_ops.bias_add(xm, self.bias[0])
                rm = nn_ops.bias_add(rm, self.bias[1])
            xz, xr, xh = array_ops.split(xm, 3, axis=1)
            rz, rr, rh = array_ops.split(rm, 3, axis=1)
            z = self.recurrent_activation(xz + rz)
            r = self.recurrent_activation(xr + rr)
            hh = self.activation(xh + r * rh)
        else:
            if self.bias is not None:
                xm = nn_ops.bias_add(xm, self.bias)
            xz, xr, xh = array_ops.split(xm, 3, axis=1)
            u = self.units
            rk = self.recurrent_kernel
            z = self.recurrent_activation(xz + ops.matmul(hd, rk[:, :u]))
            r = self.recurrent_activation(xr + ops.matmul(hd, rk[:, u:2 * u]))
            hh = self.activation(xh + ops.matmul(r * hd, rk[:, 2 * u:]))
        out = z * h + (1.0 - z) * hh
        return out, [out]

    def get_config(self):
        return {**super().get_config(), "recurrent_activation": self.recurrent_activation,
                "reset_after": self.reset_after}


class StackedRNNCells(Layer):
    """Cells run one after another at each step; the states are theirs, in order."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        self.cells = list(cells)

    @property
    def state_size(self):
        return [n for cell in self.cells for n in _sizes(cell.state_size)]

    @property
    def output_size(self):
        return _output_size(self.cells[-1])

    def build(self, input_shape):
        shape = TensorShape(input_shape)
        for cell in self.cells:
            if not cell.built:
                cell.build(shape)
                cell.built = True
            shape = TensorShape([shape.dims[0], _output_size(cell)])
        self.built = True

    def _prepare_dropout(self, x0, h0, training):
        for cell in self.cells:
            if isinstance(cell, _Cell):
                cell._prepare_dropout(x0, ops.zeros_like(x0[:, :1]) + ops.zeros([cell.units], dtype=x0.dtype),
                                      training)
                x0 = ops.zeros_like(x0[:, :1]) + ops.zeros([cell.units], dtype=x0.dtype)

    def call(self, inputs, states, training=None):
        new_states = []
        at = 0
        for cell in self.cells:
            n = len(_sizes(cell.state_size))
            inputs, s = cell(inputs, list(states[at:at + n]))
            new_states.extend(_as_list(s))
            at += n
        return inputs, new_states

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return [_zeros_state(inputs, batch_size, n, dtype or self.dtype) for n in self.state_size]


def _output_size(cell):
    size = getattr(cell, "output_size", None)
    if size is None:
        return _sizes(cell.state_size)[0]
    return _sizes(size)[0]


def _as_list(states):
    if isinstance(states, (list, tuple)):
        return list(states)
    return [states]


def _blend(m, new, old):
    """new where the step's mask m (batch, 1) is 1, old where it is 0."""
    return new * m + old * (1.0 - m)


class RNN(Layer):
    """A recurrent layer running `cell` over the time dimension of (batch, time, features) inputs."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, time_major=False, zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
            raise ValueError(f"Argument `cell` should have a `call` method and a `state_size` attribute. "
                             f"Received: cell={cell}")
        if time_major:
            raise NotImplementedError("RNN(time_major=True) is not supported by this runtime")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = bool(return_sequences)
        self.return_state = bool(return_state)
        self.go_backwards = bool(go_backwards)
        self.stateful = bool(stateful)
        self._keras_untracked_state_vars = None  # stateful: the states kept between calls (non-trainable)
        self.unroll = bool(unroll)
        self.zero_output_for_mask = bool(zero_output_for_mask)

    @property
    def states(self):
        """Stateful: the variables holding the states kept between calls; otherwise [None, ...]."""
        if self._keras_untracked_state_vars is not None:
            return list(self._keras_untracked_state_vars)
        return [None] * len(_sizes(self.cell.state_size))

    def _state_variables(self, inputs):
        if self._keras_untracked_state_vars is None:
            batch = inputs.shape.dims[0] if inputs.shape.dims is not None else None
            if batch is None:
                raise ValueError(f"If a RNN is stateful, it needs to know its batch size ({self.name} received "
                                 f"inputs of shape {inputs.shape}): give the Input a batch_size, or call it eagerly")
            self._keras_untracked_state_vars = [
                self.add_weight(f"state_{i}", (batch, n), dtype=inputs.dtype, initializer="zeros", trainable=False)
                for i, n in enumerate(_sizes(self.cell.state_size))]
        return self._keras_untracked_state_vars

    def reset_states(self, states=None):
        """Stateful: set the kept states to zeros (or to the given values)."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        if self._keras_untracked_state_vars is None:
            return
        values = [None] * len(self._keras_untracked_state_vars) if states is None else _as_list(states)
        for v, value in zip(self._keras_untracked_state_vars, values):
            v.assign(ops.zeros(v.shape.as_list(), v.dtype) if value is None else
                     ops.convert_to_tensor(value, dtype=v.dtype))

    reset_state = reset_states

    def build(self, input_shape):
        shape = TensorShape(input_shape)
        if shape.rank is not None and shape.rank < 3:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected ndim=3, "
                             f"found ndim={shape.rank}. Full shape received: {shape}")
        if not self.cell.built:
            step = TensorShape([shape.dims[0]] + list(shape.dims[2:])) if shape.dims is not None else shape
            self.cell.build(step)
            self.cell.built = True
        self.built = True

    def compute_mask(self, inputs, mask=None):
        return mask if self.return_sequences else None

    def get_initial_state(self, inputs):
        cell = self.cell
        x0 = inputs[:, 0]
        if hasattr(cell, "get_initial_state"):
            return _as_list(cell.get_initial_state(inputs=x0, batch_size=None, dtype=inputs.dtype))
        return [_zeros_state(x0, None, n, inputs.dtype) for n in _sizes(cell.state_size)]

    def call(self, inputs, mask=None, training=None, initial_state=None):
        if isinstance(inputs, (list, tuple)):  # [x, *initial_state], as Keras accepts
            inputs, initial_state = inputs[0], list(inputs[1:]) or initial_state
        cell = self.cell
        n_states = len(_sizes(cell.state_size))
        state_vars = self._state_variables(inputs) if self.stateful else None
        if state_vars is not None and initial_state is None:
            initial_state = [v._as_tensor() for v in state_vars]
        states = self.get_initial_state(inputs) if initial_state is None else \
            [ops.cast(s, inputs.dtype) if isinstance(s, Tensor) and s.dtype.is_floating and s.dtype != inputs.dtype
             else ops.convert_to_tensor(s, dtype=inputs.dtype) for s in _as_list(initial_state)]
        if len(states) != n_states:
            raise ValueError(f"Layer {self.name} expects {n_states} state(s), but it received {len(states)} "
                             f"initial state(s)")
        if hasattr(cell, "_prepare_dropout"):
            cell._prepare_dropout(inputs[:, 0], states[0], training)
        rank = inputs.shape.rank
        perm = [1, 0] + list(range(2, rank))
        xs = ops.transpose(inputs, perm)  # time-major
        ms = None
        if mask is not None:
            ms = ops.expand_dims(ops.cast(ops.transpose(ops.convert_to_tensor(mask), [1, 0]), inputs.dtype), 2)
        if self.go_backwards:
            xs = array_ops.reverse(xs, [0])
            ms = None if ms is None else array_ops.reverse(ms, [0])
        out_size = _output_size(cell)
        prev = ops.zeros_like(states[0][:, :1]) + ops.zeros([out_size], dtype=inputs.dtype) \
            if _sizes(cell.state_size)[0] != out_size else ops.zeros_like(states[0])

        def step(x_t, m_t, states, prev):
            out, new = cell(x_t, list(states))
            new = _as_list(new)
            if len(new) != n_states:
                raise ValueError(f"The cell of {self.name} returned {len(new)} state(s); its state_size has "
                                 f"{n_states}")
            if m_t is not None:
                new = [_blend(m_t, s, o) for s, o in zip(new, states)]
                out = _blend(m_t, out, ops.zeros_like(out) if self.zero_output_for_mask else prev)
            return out, new

        steps = xs.shape.dims[0] if xs.shape.dims is not None else None
        if ctx.graph is None or self.unroll:
            if steps is None:
                if ctx.graph is not None:
                    raise ValueError(f"Cannot unroll {self.name} over a time dimension of unknown length")
                steps = int(ops.shape(xs)[0].numpy())
            outs = []
            for t in range(steps):
                prev, states = step(xs[t], None if ms is None else ms[t], states, prev)
                outs.append(prev)
            if not outs:
                raise ValueError(f"{self.name} received inputs with no time steps")
            seq = ops.stack(outs, axis=1) if self.return_sequences else None
        else:
            n = ops.shape(xs)[0]
            ta = TensorArray(inputs.dtype, size=n, element_shape=prev.shape)

            def cond(t, prev, ta, *states):
                return t < n

            def body(t, prev, ta, *states):
                out, new = step(xs[t], None if ms is None else ms[t], list(states), prev)
                if self.return_sequences:
                    ta = ta.write(t, out)
                return (t + 1, out, ta, *new)

            res = while_loop(cond, body, (ops.convert_to_tensor(0, dtype=dt.int32), prev, ta, *states))
            prev, states = res[1], list(res[3:])
            seq = ops.transpose(res[2].stack(), perm[:2] + list(range(2, prev.shape.rank + 1))) \
                if self.return_sequences else None
        output = seq if self.return_sequences else prev
        if state_vars is not None:
            for v, value in zip(state_vars, states):
                v.assign(value)
        if self.return_state:
            return [output] + list(states)
        return output

    def get_config(self):
        return {**super().get_config(), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards, "unroll": self.unroll,
                "zero_output_for_mask": self.zero_output_for_mask}


class _CellLayer(RNN):
    """SimpleRNN, LSTM and GRU: an RNN over their own cell, with its arguments."""

    _cell_class: type = SimpleRNNCell
    _rnn_args = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll", "time_major",
                 "zero_output_for_mask")
    _layer_args = ("name", "trainable", "dtype", "input_shape", "input_dim", "autocast", "activity_regularizer")

    def __init__(self, units, **kwargs):
        rnn = {k: kwargs.pop(k) for k in self._rnn_args if k in kwargs}
        layer = {k: kwargs.pop(k) for k in self._layer_args if k in kwargs}
        cell = self._cell_class(units, dtype=layer.get("dtype"), trainable=layer.get("trainable", True),
                                name=f"{_base_name(type(self).__name__)}_cell", **kwargs)
        super().__init__(cell, **rnn, **layer)

    def __getattr__(self, name):  # units, activation, dropout ...: the cell's
        if name in _CELL_ATTRS and "cell" in vars(self):
            return getattr(self.cell, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def get_config(self):
        cfg = {k: v for k, v in self.cell.get_config().items() if k not in ("name", "trainable", "dtype")}
        return {**super().get_config(), **cfg}


_CELL_ATTRS = frozenset(("units", "activation", "recurrent_activation", "use_bias", "kernel_initializer",
                         "recurrent_initializer", "bias_initializer", "unit_forget_bias", "reset_after", "dropout",
                         "recurrent_dropout"))


def _base_name(cls_name):
    from ._layer import _snake

    return _snake(cls_name)


class SimpleRNN(_CellLayer):
    """A fully connected RNN over a sequence (tf.keras.layers.SimpleRNN)."""

    _cell_class = SimpleRNNCell


class LSTM(_CellLayer):
    """Long short-term memory over a sequence (tf.keras.layers.LSTM); states [h, c]."""

    _cell_class = LSTMCell


class GRU(_CellLayer):
    """A gated recurrent unit over a sequence (tf.keras.layers.GRU), reset_after=True by default."""

    _cell_class = GRUCell


def _clone(layer, **changes):
    cfg = layer.get_config()
    cfg.pop("name", None)
    cfg.update(changes)
    if isinstance(layer, _CellLayer):
        return type(layer)(**cfg)
    if isinstance(layer, RNN):
        cell = layer.cell
        cells = cell.cells if isinstance(cell, StackedRNNCells) else [cell]
        copies = []
        for c in cells:
            ccfg = c.get_config()
            ccfg.pop("name", None)
            copies.append(type(c)(**ccfg))
        return RNN(copies if isinstance(cell, StackedRNNCells) else copies[0], **cfg)
    raise ValueError(f"Bidirectional cannot copy {layer!r}: give it `backward_layer=`")


class Bidirectional(Layer):
    """Runs a recurrent layer forwards and a copy of it backwards, and merges their outputs."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, RNN):
            raise ValueError(f"Please initialize `Bidirectional` layer with a `tf.keras.layers.Layer` instance "
                             f"(a recurrent layer). Received: {layer}")
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             f"{{'sum', 'mul', 'ave', 'concat', None}}")
        super().__init__(**kwargs)
        self.forward_layer = layer
        if backward_layer is None:
            backward_layer = _clone(layer, go_backwards=not layer.go_backwards)
        elif backward_layer.go_backwards == layer.go_backwards:
            raise ValueError("Forward layer and backward layer should have different `go_backwards` value")
        self.backward_layer = backward_layer
        layer._name = f"forward_{layer.name}"
        backward_layer._name = f"backward_{backward_layer.name}"
        for rnn in (layer, backward_layer):
            rnn.zero_output_for_mask = rnn.return_sequences
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state

    def compute_mask(self, inputs, mask=None):
        return mask if self.return_sequences else None

    def call(self, inputs, mask=None, training=None, initial_state=None):
        fs = bs = None
        if initial_state is not None:
            initial_state = _as_list(initial_state)
            half = len(initial_state) // 2
            fs, bs = initial_state[:half], initial_state[half:]
        y = self.forward_layer(inputs, mask=mask, initial_state=fs)
        yb = self.backward_layer(inputs, mask=mask, initial_state=bs)
        states = []
        if self.return_state:
            y, states = y[0], list(y[1:])
            yb, bstates = yb[0], list(yb[1:])
            states += bstates
        if self.return_sequences:
            yb = array_ops.reverse(yb, [1])
        if self.merge_mode == "concat":
            out = ops.concat([y, yb], -1)
        elif self.merge_mode == "sum":
            out = y + yb
        elif self.merge_mode == "ave":
            out = (y + yb) / 2.0
        elif self.merge_mode == "mul":
            out = y * yb
        else:
            out = [y, yb]
        if self.return_state:
            return (out if isinstance(out, list) else [out]) + states
        return out


class TimeDistributed(Layer):
    """Applies a layer to every time step of (batch, time, ...) inputs."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `tf.keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape):
        shape = TensorShape(input_shape)
        if shape.rank is None or shape.rank < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with at least 3 "
                             f"dimensions, received: {shape}")
        self.built = True

    def compute_mask(self, inputs, mask=None):
        return mask

    def call(self, inputs, training=None, mask=None):
        dims = inputs.shape.dims
        lead = [dims[0] if dims[0] is not None else ops.shape(inputs)[0],
                dims[1] if dims[1] is not None else ops.shape(inputs)[1]]
        inner = [d if d is not None else ops.shape(inputs)[i + 2] for i, d in enumerate(dims[2:])]
        flat = ops.reshape(inputs, [-1] + inner)
        y = self.layer(flat)
        ydims = y.shape.dims
        rest = [d if d is not None else ops.shape(y)[i + 1] for i, d in enumerate(ydims[1:])]
        return ops.reshape(y, lead + rest)

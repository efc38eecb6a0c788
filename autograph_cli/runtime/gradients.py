"""GradientTape: reverse-mode gradients of eager ops, of functions (their
graphs are interpreted op by op while a tape records) and so of staged
conds and loops."""
from __future__ import annotations

import numpy as np

from . import dtypes as dt
from . import nest
from . import ops
from .context import ctx
from .tensor import EagerTensor, Tensor, convert_to_tensor

__all__ = ["GradientTape", "record", "interpret_graph"]


class _Entry:
    __slots__ = ("op", "inputs", "outputs", "attrs")

    def __init__(self, op, inputs, outputs, attrs):
        self.op = op
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs


class GradientTape:
    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_vars = watch_accessed_variables
        self._entries = []
        self._tracked = set()  # ids of tensors that depend on watched ones
        self._keep = []  # keeps tracked tensors alive (ids stay unique)
        self._var_reads = {}  # id(variable) -> [tensors read]
        self._vars = {}
        self._recording = False
        self._used = False

    def __enter__(self):
        if ctx.graph is not None:
            raise NotImplementedError(
                "GradientTape inside a function being traced is not supported by this runtime: record the "
                "tape outside the function (gradients flow through the function's graph, its conds and loops)"
            )
        ctx.tapes.append(self)
        self._recording = True
        return self

    def __exit__(self, *exc):
        if self in ctx.tapes:
            ctx.tapes.remove(self)
        self._recording = False
        return False

    def watch(self, tensor):
        for t in nest.flatten(tensor):
            from .variables import Variable

            if isinstance(t, Variable):
                self._vars[id(t)] = t
                continue
            self._tracked.add(id(t))
            self._keep.append(t)

    def watched_variables(self):
        return tuple(self._vars.values())

    def stop_recording(self):
        tape = self

        class _Stop:
            def __enter__(self):
                if tape in ctx.tapes:
                    ctx.tapes.remove(tape)

            def __exit__(self, *exc):
                ctx.tapes.append(tape)
                return False

        return _Stop()

    def reset(self):
        self._entries.clear()
        self._tracked.clear()
        self._var_reads.clear()

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients="none"):
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients")
        self._used = True
        from .variables import Variable

        targets = nest.flatten(target)
        grads = {}
        out_grads = nest.flatten(output_gradients) if output_gradients is not None else [None] * len(targets)
        for t, og in zip(targets, out_grads):
            if isinstance(t, Variable):
                t = t._as_tensor()
            if og is None:
                g = np.ones_like(np.asarray(t._value))
            else:
                g = np.asarray(convert_to_tensor(og)._value)
            _acc(grads, id(t), g)
        for e in reversed(self._entries):
            dys = [grads.get(id(o)) for o in e.outputs]
            if all(d is None for d in dys):
                continue
            fn = _GRADS.get(e.op.name)
            if fn is None:
                continue
            dys = [
                ({} if o.dtype is dt.variant else np.zeros_like(np.asarray(o._value))) if d is None else d
                for d, o in zip(dys, e.outputs)
            ]
            xs = [i._value for i in e.inputs]
            ys = [o._value for o in e.outputs]
            dxs = fn(xs, ys, e.attrs, dys)
            for inp, dx in zip(e.inputs, dxs):
                if dx is None:
                    continue
                if inp.dtype is dt.variant:  # TensorArray handle: {index: gradient}
                    _acc_handle(grads, id(inp), dx)
                    continue
                if not inp.dtype.is_floating:
                    continue
                _acc(grads, id(inp), _unbroadcast(np.asarray(dx), np.shape(inp._value)).astype(inp.dtype.np))

        def result(src):
            if isinstance(src, Variable):
                total = None
                for t in self._var_reads.get(id(src), ()):
                    g = grads.get(id(t))
                    if g is not None:
                        total = g if total is None else total + g
                if total is None:
                    return _unconnected(src, unconnected_gradients)
                return EagerTensor(_scalar(np.asarray(total).astype(src.dtype.np)), src.dtype)
            g = grads.get(id(src))
            if g is None:
                return _unconnected(src, unconnected_gradients)
            return EagerTensor(_scalar(np.asarray(g).astype(src.dtype.np)), src.dtype)

        return nest.map_structure(result, sources) if nest.is_nested(sources) else result(sources)

    def jacobian(self, target, sources):
        raise NotImplementedError("jacobian is not supported by this runtime")


def _unconnected(src, mode):
    if mode == "zero":
        return EagerTensor(np.zeros_like(np.asarray(src.numpy() if hasattr(src, "numpy") else src)), src.dtype)
    return None


def _scalar(a):
    return a[()] if a.ndim == 0 else a


def _acc(grads, key, g):
    cur = grads.get(key)
    grads[key] = g if cur is None else cur + g


def _acc_handle(grads, key, d):
    cur = grads.get(key)
    if cur is None:
        grads[key] = dict(d)
        return
    for i, g in d.items():
        cur[i] = g if i not in cur else cur[i] + g


def _unbroadcast(g, shape):
    shape = tuple(shape)
    if g.shape == shape:
        return g
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for i, d in enumerate(shape):
        if d == 1 and g.shape[i] != 1:
            g = g.sum(axis=i, keepdims=True)
    return g.reshape(shape)


def record(op, inputs, outputs, attrs):
    for tape in ctx.tapes:
        if any(id(i) in tape._tracked for i in inputs):
            tape._entries.append(_Entry(op, list(inputs), list(outputs), attrs))
            for o in outputs:
                tape._tracked.add(id(o))
                tape._keep.append(o)


def watch_variable_read(var, t):
    for tape in ctx.tapes:
        if (tape._watch_vars and var.trainable and var.dtype.is_floating) or id(var) in tape._vars:
            tape._vars[id(var)] = var
            tape._var_reads.setdefault(id(var), []).append(t)
            tape._tracked.add(id(t))
            tape._keep.append(t)


def record_assign(var):
    pass


# ------------------------------------------------------------ gradients
_GRADS = {}


def _g(name):
    def deco(fn):
        _GRADS[name] = fn
        return fn

    return deco


@_g("AddV2")
def _(x, y, a, d):
    return [d[0], d[0]]


@_g("Sub")
def _(x, y, a, d):
    return [d[0], -d[0]]


@_g("Mul")
def _(x, y, a, d):
    return [d[0] * x[1], d[0] * x[0]]


@_g("RealDiv")
def _(x, y, a, d):
    return [d[0] / x[1], -d[0] * x[0] / (x[1] * x[1])]


@_g("Neg")
def _(x, y, a, d):
    return [-d[0]]


@_g("Identity")
def _(x, y, a, d):
    return [d[0]]


@_g("EnsureShape")
def _(x, y, a, d):
    return [d[0]]


@_g("Square")
def _(x, y, a, d):
    return [2 * x[0] * d[0]]


@_g("SquaredDifference")
def _(x, y, a, d):
    g = 2 * (x[0] - x[1]) * d[0]
    return [g, -g]


@_g("Tanh")
def _(x, y, a, d):
    return [d[0] * (1 - y[0] * y[0])]


@_g("Sigmoid")
def _(x, y, a, d):
    return [d[0] * y[0] * (1 - y[0])]


@_g("Exp")
def _(x, y, a, d):
    return [d[0] * y[0]]


@_g("Log")
def _(x, y, a, d):
    return [d[0] / x[0]]


@_g("Sqrt")
def _(x, y, a, d):
    return [d[0] / (2 * y[0])]


@_g("Sin")
def _(x, y, a, d):
    return [d[0] * np.cos(x[0])]


@_g("Cos")
def _(x, y, a, d):
    return [-d[0] * np.sin(x[0])]


@_g("Abs")
def _(x, y, a, d):
    return [d[0] * np.sign(x[0])]


@_g("Relu")
def _(x, y, a, d):
    return [d[0] * (np.asarray(x[0]) > 0)]


@_g("Pow")
def _(x, y, a, d):
    b, e = x
    gx = d[0] * e * np.power(b, e - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ge = d[0] * y[0] * np.where(np.asarray(b) > 0, np.log(np.where(np.asarray(b) > 0, b, 1)), 0)
    return [gx, ge]


@_g("Maximum")
def _(x, y, a, d):
    m = np.asarray(x[0]) >= np.asarray(x[1])
    return [d[0] * m, d[0] * ~m]


@_g("Minimum")
def _(x, y, a, d):
    m = np.asarray(x[0]) <= np.asarray(x[1])
    return [d[0] * m, d[0] * ~m]


@_g("MatMul")
def _(x, y, a, d):
    A, B = np.asarray(x[0]), np.asarray(x[1])
    g = np.asarray(d[0])
    ta, tb = a.get("transpose_a", False), a.get("transpose_b", False)
    At = np.swapaxes(A, -1, -2)
    Bt = np.swapaxes(B, -1, -2)
    if not ta and not tb:
        return [g @ Bt, At @ g]
    if ta and not tb:
        return [B @ np.swapaxes(g, -1, -2), A @ g]
    if not ta and tb:
        return [g @ B, np.swapaxes(g, -1, -2) @ A]
    return [Bt @ np.swapaxes(g, -1, -2), np.swapaxes(g, -1, -2) @ At]


def _reduce_back(x, a, g):
    shape = np.shape(x)
    axis = a["axis"]
    g = np.asarray(g)
    if axis is None:
        return np.broadcast_to(g.reshape([1] * len(shape)) if not a["keepdims"] else g, shape)
    if not a["keepdims"]:
        for ax in sorted(axis):
            g = np.expand_dims(g, ax)
    return np.broadcast_to(g, shape)


@_g("Sum")
def _(x, y, a, d):
    return [_reduce_back(x[0], a, d[0])]


@_g("Mean")
def _(x, y, a, d):
    shape = np.shape(x[0])
    n = int(np.prod(shape)) if a["axis"] is None else int(np.prod([shape[i] for i in a["axis"]]))
    return [_reduce_back(x[0], a, d[0]) / max(n, 1)]


def _minmax(x, y, a, d):
    full = _reduce_back(x[0], a, np.asarray(y[0]))
    mask = np.asarray(x[0]) == full
    count = _reduce_back(x[0], a, np.sum(mask, axis=a["axis"], keepdims=a["keepdims"]))
    return [_reduce_back(x[0], a, d[0]) * mask / count]


_GRADS["Max"] = _minmax
_GRADS["Min"] = _minmax


@_g("Cast")
def _(x, y, a, d):
    src = np.asarray(x[0]).dtype
    if src.kind != "f":
        return [None]
    return [np.asarray(d[0]).astype(src)]


@_g("Reshape")
def _(x, y, a, d):
    return [np.reshape(d[0], np.shape(x[0]))] + [None] * (len(x) - 1)


@_g("ExpandDims")
def _(x, y, a, d):
    return [np.reshape(d[0], np.shape(x[0]))]


@_g("Squeeze")
def _(x, y, a, d):
    return [np.reshape(d[0], np.shape(x[0]))]


@_g("Transpose")
def _(x, y, a, d):
    perm = a["perm"]
    if perm is None:
        return [np.transpose(d[0])]
    return [np.transpose(d[0], np.argsort(perm))]


@_g("StridedSlice")
def _(x, y, a, d):
    z = np.zeros_like(np.asarray(x[0]))
    idx_holder = {}

    class _Cap:
        def __getitem__(self, idx):
            idx_holder["i"] = idx
            return 0

    ops._slice_kernel(_Cap(), *x[1:], spec=a["spec"])
    np.add.at(z, idx_holder["i"], d[0]) if False else z.__setitem__(idx_holder["i"], z[idx_holder["i"]] + d[0])
    return [z] + [None] * (len(x) - 1)


@_g("ConcatV2")
def _(x, y, a, d):
    sizes = [np.shape(v)[a["axis"]] for v in x]
    splits = np.cumsum(sizes)[:-1]
    return list(np.split(np.asarray(d[0]), splits, axis=a["axis"]))


@_g("Pack")
def _(x, y, a, d):
    return [np.take(d[0], i, axis=a["axis"]) for i in range(len(x))]


@_g("GatherV2")
def _(x, y, a, d):
    z = np.zeros_like(np.asarray(x[0]))
    idx = np.asarray(x[1])
    axis = a["axis"]
    zm = np.moveaxis(z, axis, 0)
    dm = np.moveaxis(np.asarray(d[0]), axis, 0) if idx.ndim else np.asarray(d[0])
    np.add.at(zm, idx, dm)
    return [z, None]


@_g("SelectV2")
def _(x, y, a, d):
    c = np.asarray(x[0])
    g = np.asarray(d[0])
    return [None, np.where(c, g, 0), np.where(c, 0, g)]


@_g("Tile")
def _(x, y, a, d):
    shape = np.shape(x[0])
    g = np.asarray(d[0])
    m = a["multiples"]
    g = g.reshape([v for s, k in zip(shape, m) for v in (k, s)])
    return [g.sum(axis=tuple(range(0, 2 * len(shape), 2)))]


@_g("TensorArrayGatherV3")
def _(x, y, a, d):
    g = np.asarray(d[0])
    return [{i: g[i] for i in range(g.shape[0])}]


@_g("TensorArrayConcatV3")
def _(x, y, a, d):
    g = np.asarray(d[0])
    out, start = {}, 0
    for i, v in enumerate(x[0]):
        n = np.shape(v)[0] if v is not None else 0
        out[i] = g[start:start + n]
        start += n
    return [out]


@_g("TensorArrayWriteV3")
def _(x, y, a, d):
    hg = dict(d[0]) if isinstance(d[0], dict) else {}
    i = int(x[1])
    vg = hg.pop(i, None)
    return [hg, None, vg]


@_g("TensorArrayReadV3")
def _(x, y, a, d):
    return [{int(x[1]): np.asarray(d[0])}, None]


@_g("TensorArrayScatterV3")
def _(x, y, a, d):
    v = np.asarray(x[0])
    g = np.zeros_like(v)
    for i, gi in (d[0] or {}).items():
        g[i] = gi
    return [g]


# ------------------------------------------------- graphs under a tape
def interpret_graph(cf, values, tensors=None):
    """Run a concrete function's graph op by op with eager ops, so that an
    active GradientTape records every op (through conds and loops)."""
    from .compiler import _mark
    from .tensor import SymbolicTensor
    from .variables import READ

    graph = cf.graph
    kept = set()
    needed = {id(o) for o in cf.outputs}
    _mark(graph.root, needed, kept)
    env = {}
    for ph, v, t in zip(cf._placeholders, values, tensors or [None] * len(values)):
        env[id(ph)] = t if t is not None else EagerTensor(v, ph.dtype)

    def get(t):
        if t.const is not None and id(t) not in env:
            return EagerTensor(t.const, t.dtype)
        return env[id(t)]

    def run(block):
        for node in block.nodes:
            if node.id not in kept or node.op == "Placeholder":
                continue
            op = node.op
            if op == "If":
                pred = get(node.inputs[0])
                region = node.regions[0] if bool(pred._value) else node.regions[1]
                run(region)
                for o, r in zip(node.outputs, region.results):
                    env[id(o)] = get(r)
            elif op == "While":
                cond_b, body_b = node.regions
                cur = [get(t) for t in node.inputs]
                while True:
                    for a, v in zip(cond_b.args, cur):
                        env[id(a)] = v
                    run(cond_b)
                    if not bool(get(cond_b.results[0])._value):
                        break
                    for a, v in zip(body_b.args, cur):
                        env[id(a)] = v
                    run(body_b)
                    cur = [get(r) for r in body_b.results]
                for o, v in zip(node.outputs, cur):
                    env[id(o)] = v
            elif op in ("For", "ReduceDataset"):
                extra_b, body_b = node.regions
                n_item = node.attrs["n_item"]
                n_src = node.attrs.get("n_src", 1)
                src = get(node.inputs[0])
                cur = [get(t) for t in node.inputs[n_src:]]
                if n_src > 1:
                    srcs = [get(t) for t in node.inputs[:n_src]]
                    n = min(np.shape(t._value)[0] for t in srcs)
                    items = ([ops.getitem(t, i) for t in srcs] for i in range(n))
                elif node.attrs.get("dataset"):
                    specs = nest.flatten(src._value.element_spec)
                    items = ([EagerTensor(v, s.dtype) for v, s in zip(flat, specs)] for flat in src._value._make_iter())
                else:
                    items = ([ops.getitem(src, i)] for i in range(np.shape(src._value)[0]))
                for item in items:
                    if extra_b is not None:
                        for a, v in zip(extra_b.args, cur):
                            env[id(a)] = v
                        run(extra_b)
                        if not bool(get(extra_b.results[0])._value):
                            break
                    for a, v in zip(body_b.args, item + cur):
                        env[id(a)] = v
                    run(body_b)
                    cur = [get(r) for r in body_b.results]
                for o, v in zip(node.outputs, cur):
                    env[id(o)] = v
            elif node.opdef is READ:
                env[id(node.outputs[0])] = node.attrs["var"]._as_tensor()
            elif op == "Const":
                env[id(node.outputs[0])] = EagerTensor(node.attrs["value"], node.attrs["dtype"])
            else:
                ins = [get(t) for t in node.inputs]
                outs = ops.apply(node.opdef, ins, node.attrs)
                for o, r in zip(node.outputs, outs):
                    env[id(o)] = r

    saved = ctx.graph
    ctx.graph = None
    try:
        run(graph.root)
    finally:
        ctx.graph = saved
    outs = [get(o) for o in cf.outputs]
    s = cf.structured_outputs
    if s is None:
        return None
    it = iter(outs)
    flat = [next(it) if isinstance(x, SymbolicTensor) else x for x in nest.flatten(s, expand_composites=False)]
    return nest.pack_sequence_as(s, flat, expand_composites=False)


_ = (dt, Tensor)

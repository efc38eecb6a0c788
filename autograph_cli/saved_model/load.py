"""tf.saved_model.load: rebuild graphs from data, compile them with the
runtime's compiler, restore Variables; no pickle, no eval of user code, no
import of user modules."""
from __future__ import annotations

import importlib
import os
from typing import Any

import numpy as np

from autograph_cli.runtime import dtypes as dt
from autograph_cli.runtime import ops
from autograph_cli.runtime.compiler import compile_graph
from autograph_cli.runtime.errors import InvalidArgumentError
from autograph_cli.runtime.function import ConcreteFunction, _has_placeholder
from autograph_cli.runtime.graph import Block, Graph, Node
from autograph_cli.runtime.shapes import TensorShape, TensorSpec
from autograph_cli.runtime.tensor import EagerTensor, SymbolicTensor, Tensor, convert_to_tensor
from autograph_cli.runtime.variables import Module, Variable

from ._guard import check as check_generated_code
from ._values import Decoder
from .format import GRAPH, SavedModelError, read_array, read_json, read_manifest

__all__ = ["load", "LoadedFunction", "SignatureFunction"]

# every module that registers ops, so that ops.REGISTRY is complete
for _m in ("control_flow", "data", "effects", "functional_ops", "grad_ops", "nn_ops", "ops_array", "ops_linalg",
           "ops_math", "ops_random", "tensor_array", "variables"):
    importlib.import_module(f"autograph_cli.runtime.{_m}")


class _Missing:
    def __repr__(self):
        return "<missing>"


_MISSING = _Missing()


class _Reader:
    def __init__(self, export_dir):
        self.dir = export_dir
        self.manifest = read_manifest(export_dir)
        self.path = os.path.join(export_dir, GRAPH)
        self.meta = read_json(export_dir, GRAPH, self.manifest)

    def array(self, rel, np_dtype, shape):
        if not isinstance(rel, str):
            raise SavedModelError(f"{self.path}: array file name must be a string")
        return read_array(self.dir, rel, self.manifest, np_dtype, shape)

    def bad(self, msg):
        return SavedModelError(f"{self.path}: {msg}")


def _as_runtime_value(arr):
    return arr[()] if isinstance(arr, np.ndarray) and arr.ndim == 0 else arr


def _variables(r):
    out = []
    entries = r.meta.get("variables")
    if not isinstance(entries, list):
        raise r.bad("'variables' must be a list")
    for i, e in enumerate(entries):
        try:
            d = dt.as_dtype(e["dtype"])
            shape = TensorShape(e["shape"])
            if "file" in e:
                arr = r.array(e["file"], np.dtype(d.np), e["value_shape"]) if d.np is not None else None
                if not TensorShape(arr.shape).is_subtype_of(shape):
                    raise SavedModelError(
                        f"{os.path.join(r.dir, e['file'])}: variable {e['name']!r} has shape {list(arr.shape)} but "
                        f"the graph says {shape}")
                value = _as_runtime_value(arr)
            elif "value" in e:
                value = Decoder(r.array, [], f"{r.path}: variable #{i}")(e["value"])
            else:
                raise r.bad(f"variable #{i} ({e.get('name')!r}) has neither a file nor a value")
            v = Variable(value, trainable=bool(e.get("trainable", True)), name=e["name"], dtype=d, shape=shape)
        except SavedModelError:
            raise
        except (KeyError, TypeError, ValueError) as ex:
            raise r.bad(f"variable #{i} is malformed ({type(ex).__name__}: {ex})") from None
        out.append(v)
    return out


class _GraphBuilder:
    def __init__(self, r, variables, cfname, data):
        self.r = r
        self.cfname = cfname
        self.where = f"{r.path}: function {cfname!r}"
        self.decode = Decoder(r.array, variables, self.where)
        self.g = Graph(data.get("function", cfname))
        self.nodes = {}
        self.blocks = {}

    def bad(self, msg):
        return SavedModelError(f"{self.where}: {msg}")

    def spec(self, s):
        return dt.as_dtype(s["dtype"]), TensorShape(s["shape"])

    def composite(self, s, part):
        """A RaggedTensor or SparseTensor rebuilt from its saved components."""
        from autograph_cli.runtime.composite import RaggedTensor, SparseTensor

        kinds = {"RaggedTensor": (RaggedTensor, 2), "SparseTensor": (SparseTensor, 3)}
        kind = kinds.get(s["$composite"])
        parts = s.get("parts")
        if kind is None or not isinstance(parts, list) or len(parts) != kind[1]:
            raise self.bad(f"malformed composite tensor {s!r}")
        return kind[0](*[part(x) for x in parts])

    def const(self, value, d, shape, what):
        if isinstance(value, (np.ndarray, np.generic)) or not isinstance(value, (bytes, str)):
            vshape = np.shape(value)
            if shape.dims is not None and not TensorShape(vshape).is_subtype_of(shape):
                raise self.bad(f"{what} has shape {list(vshape)} but the graph says {shape}")
        return value

    def ref(self, r):
        if not isinstance(r, dict):
            raise self.bad(f"malformed tensor reference {r!r}")
        if "input" in r:
            return self.g.inputs[r["input"]]
        if "node" in r:
            n = self.nodes.get(r["node"])
            if n is None:
                raise self.bad(f"reference to node #{r['node']}, which is not defined before its use")
            return n.outputs[r["out"]]
        if "arg" in r:
            b = self.blocks.get(r["arg"])
            if b is None:
                raise self.bad(f"reference to block #{r['arg']}, which does not enclose its use")
            return b.args[r["index"]]
        if "const" in r:
            d, shape = self.spec(r)
            value = self.const(self.decode(r["const"]), d, shape, "a constant")
            g = self.g
            saved = g.block
            g.block = g.root
            try:
                t = g.constant(value, d)
            finally:
                g.block = saved
            t._shape = shape
            return t
        raise self.bad(f"malformed tensor reference {r!r}")

    def block(self, data, parent, kind=None):
        g = self.g
        b = g.root if parent is None else Block(g, parent, data.get("kind", kind or "block"))
        self.blocks[data["id"]] = b
        for i, a in enumerate(data["args"]):
            d, s = self.spec(a)
            b.args.append(SymbolicTensor(None, i, d, s, b, name=a.get("name")))
        for nd in data["nodes"]:
            self.node(nd, b)
        b.results = [self.ref(x) for x in data["results"]]
        return b

    def node(self, nd, b):
        op = nd["op"]
        opdef = ops.REGISTRY.get(op) if isinstance(op, str) else None
        if opdef is None or op == "EagerPyFunc":
            raise self.bad(f"node {nd.get('name')!r} has unknown op {op!r} (not an op of this runtime)")
        inputs = [self.ref(x) for x in nd["inputs"]]
        attrs = {k: self.decode(v) for k, v in nd["attrs"].items()}
        n = Node(nd["name"], opdef, inputs, attrs, b)
        loc = nd.get("location")
        n.location = (str(loc[0]), int(loc[1])) if loc else None
        n.effect = bool(nd.get("effect"))
        saved = self.g.block
        self.g.block = b
        try:
            n.regions = tuple(None if r is None else self.block(r, b) for r in nd["regions"])
        finally:
            self.g.block = saved
        outs = []
        for i, o in enumerate(nd["outputs"]):
            d, s = self.spec(o)
            t = SymbolicTensor(n, i, d, s, b)
            if "const" in o:
                t.const = self.const(self.decode(o["const"]), d, s, f"output {i} of node {nd['name']!r}")
            outs.append(t)
        n.outputs = outs
        for v in attrs.values():
            if isinstance(v, Variable) and v not in self.g.variables:
                self.g.variables.append(v)
        if n.effect:
            self.g.has_effects = True
        b.nodes.append(n)
        self.nodes[nd["id"]] = n

    def build(self, data):
        g = self.g
        for p in data["inputs"]:
            d, s = self.spec(p)
            g.placeholder(d, s, p["name"])
        self.block(data["graph"], None)
        outputs = [self.ref(x) for x in data["outputs"]]
        for o, s in zip(outputs, data["output_specs"]):
            d, shape = self.spec(s)
            if o.dtype is not d:
                raise self.bad(f"an output has dtype {o.dtype.name} but the function says {d.name}")
        g.outputs = outputs

        def struct(s):
            if s is None:
                return None
            if isinstance(s, dict) and "$out" in s:
                i = s["$out"]
                if not isinstance(i, int) or not 0 <= i < len(outputs):
                    raise self.bad(f"output structure refers to output #{i}, which does not exist")
                return outputs[i]
            if isinstance(s, dict) and "$dict" in s:
                return {k: struct(x) for k, x in s["$dict"]}
            if isinstance(s, dict) and "$list" in s:
                return [struct(x) for x in s["$list"]]
            if isinstance(s, dict) and "$tuple" in s:
                return tuple(struct(x) for x in s["$tuple"])
            if isinstance(s, dict) and "$composite" in s:
                return self.composite(s, struct)
            raise self.bad(f"malformed output structure {s!r}")

        structured = struct(data["structured_outputs"])
        g.structured_outputs = structured

        def arg(a):
            if isinstance(a, dict) and "$ph" in a:
                return g.inputs[a["$ph"]]
            if isinstance(a, dict) and "$composite" in a:
                return self.composite(a, arg)
            if isinstance(a, dict) and any(k in a for k in ("$list", "$tuple", "$dict")) and _contains_ph(a):
                if "$dict" in a:
                    return {self.decode(k): arg(x) for k, x in a["$dict"]}
                items = [arg(x) for x in a.get("$list", a.get("$tuple"))]
                return items if "$list" in a else tuple(items)
            return self.decode(a)

        args = [arg(a) for a in data["args"]]
        params = list(data["params"])
        if len(params) != len(args):
            raise self.bad("params and args differ in length")
        check_generated_code(g, g.inputs, outputs, self.cfname, self.where)
        fn, src = compile_graph(g, g.inputs, outputs, self.cfname)
        return ConcreteFunction(self.cfname, g, params, args, g.inputs, outputs, structured, fn, src)


def _contains_ph(a):
    if isinstance(a, dict):
        return "$ph" in a or any(_contains_ph(x) for x in a.values())
    if isinstance(a, list):
        return any(_contains_ph(x) for x in a)
    return False


def _concretes(r, variables):
    out = {}
    table = r.meta.get("concrete_functions")
    if not isinstance(table, dict):
        raise r.bad("'concrete_functions' must be an object")
    for name, data in table.items():
        b = _GraphBuilder(r, variables, name, data)
        try:
            out[name] = b.build(data)
        except SavedModelError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise b.bad(f"malformed graph ({type(e).__name__}: {e})") from None
    return out


# -- loaded objects ---------------------------------------------------------------------


def _spec_text(t):
    return f"TensorSpec(shape={t.shape}, dtype=tf.{t.dtype.name}, name={t.node.name if t.node else None!r})"


def _describe_arg(a):
    if isinstance(a, Tensor):
        return f"<tf.Tensor shape={a.shape} dtype={a.dtype.name}>"
    return repr(a)


def _match_tensor(spec, a):
    if isinstance(a, Variable):
        a = EagerTensor(a._read_value(), a.dtype)
    if not isinstance(a, Tensor):
        try:
            a = convert_to_tensor(a, dtype=spec.dtype)
        except (TypeError, ValueError, InvalidArgumentError):
            return None
    if not isinstance(a, EagerTensor) or a.dtype is not spec.dtype or not a.shape.is_subtype_of(spec.shape):
        return None
    return a._value


def _same_static(a, b):
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def _traced_pairs(cf, args, kwargs):
    """[(actual argument, traced argument)] for the arguments of `cf` that
    hold placeholders, if the call's arguments bind to its parameters and the
    static ones equal what was traced; else None."""
    params = cf._params
    if len(args) > len(params):
        return None
    bound = [_MISSING] * len(params)
    for i, a in enumerate(args):
        bound[i] = a
    for k, v in kwargs.items():
        if k not in params or bound[params.index(k)] is not _MISSING:
            return None
        bound[params.index(k)] = v
    pairs = []
    for actual, traced in zip(bound, cf._arg_values):
        if not _has_placeholder(traced):
            if actual is _MISSING or _same_static(actual, traced):
                continue
            return None
        if actual is _MISSING:
            return None
        pairs.append((actual, traced))
    return pairs


def _bind(cf, args, kwargs):
    """The flat input values if `cf` accepts these arguments, else None."""
    pairs = _traced_pairs(cf, args, kwargs)
    if pairs is None:
        return None
    values = []
    for actual, traced in pairs:
        if isinstance(traced, SymbolicTensor):
            v = _match_tensor(traced, actual)
            if v is None:
                return None
            values.append(v)
            continue
        from autograph_cli.runtime import nest

        try:
            if nest.structure_key(traced) != nest.structure_key(actual):
                return None
        except (TypeError, ValueError):
            return None
        for t, a in zip(nest.flatten(traced), nest.flatten(actual)):
            if isinstance(t, SymbolicTensor):
                v = _match_tensor(t, a)
                if v is None:
                    return None
                values.append(v)
            elif not _same_static(a, t):
                return None
    return values


def _arg_text(a):
    if isinstance(a, SymbolicTensor):
        return _spec_text(a)
    if isinstance(a, (list, tuple)) and _has_placeholder(a):
        inner = ", ".join(_arg_text(x) for x in a)
        return f"[{inner}]" if isinstance(a, list) else f"({inner}{',' if len(a) == 1 else ''})"
    if isinstance(a, dict) and _has_placeholder(a):
        return "{" + ", ".join(f"{k!r}: {_arg_text(x)}" for k, x in a.items()) + "}"
    return repr(a)


def _shape_only(a):
    return _Described(a) if isinstance(a, SymbolicTensor) else a


class _Described:
    def __init__(self, t):
        self.t = t

    def __repr__(self):
        return f"<symbolic tf.Tensor shape={self.t.shape} dtype={self.t.dtype.name}>"


def _bind_symbolic(cf, args, kwargs, g):
    """[(placeholder, tensor in g)] if `cf` accepts these arguments while
    tracing `g`, else None."""
    from autograph_cli.runtime import nest

    matched = _traced_pairs(cf, args, kwargs)
    if matched is None:
        return None
    pairs = []
    for actual, traced in matched:
        try:
            if not isinstance(traced, SymbolicTensor) and nest.structure_key(traced) != nest.structure_key(actual):
                return None
            leaves = zip(nest.flatten(traced), nest.flatten(actual)) if not isinstance(traced, SymbolicTensor) \
                else [(traced, actual)]
        except (TypeError, ValueError):
            return None
        for t, a in leaves:
            if not isinstance(t, SymbolicTensor):
                if not _same_static(a, t):
                    return None
                continue
            if isinstance(a, Variable):
                a = a._as_tensor()
            if not isinstance(a, Tensor):
                try:
                    a = convert_to_tensor(a, dtype=t.dtype)
                except (TypeError, ValueError, InvalidArgumentError):
                    return None
            if isinstance(a, EagerTensor):
                a = g.capture(a)
            if a.dtype is not t.dtype or not a.shape.is_subtype_of(t.shape):
                return None
            pairs.append((t, a))
    return pairs


def _inline(cf, pairs, g):
    """A copy of `cf`'s graph in the block being traced; its outputs."""
    m = {id(p): a for p, a in pairs}
    consts = {}

    def get(t):
        hit = m.get(id(t))
        if hit is not None:
            return hit
        if t.const is not None:
            c = consts.get(id(t))
            if c is None:
                saved = g.block
                g.block = g.root
                try:
                    c = consts[id(t)] = g.constant(t.const, t.dtype)
                finally:
                    g.block = saved
                c._shape = t.shape
            return c
        raise SavedModelError(f"{cf.name}: internal error: tensor {t.name} has no value in the caller's graph")

    def copy_block(src, dst):
        for n in src.nodes:
            if n.op == "Placeholder" or (n.op == "Const" and not n.effect):
                continue
            nn = Node(g.unique_name(n.name), n.opdef, [get(t) for t in n.inputs], n.attrs, dst)
            nn.location = n.location
            nn.effect = n.effect
            regions = []
            for r in n.regions:
                if r is None:
                    regions.append(None)
                    continue
                b = Block(g, dst, r.kind)
                for a in r.args:
                    na = SymbolicTensor(None, a.index, a.dtype, a.shape, b, name=a._name)
                    b.args.append(na)
                    m[id(a)] = na
                copy_block(r, b)
                b.results = [get(x) for x in r.results]
                regions.append(b)
            nn.regions = tuple(regions)
            outs = []
            for o in n.outputs:
                no = SymbolicTensor(nn, o.index, o.dtype, o.shape, dst)
                no.const = o.const
                m[id(o)] = no
                outs.append(no)
            nn.outputs = outs
            dst.nodes.append(nn)
            if nn.effect:
                g.has_effects = True

    copy_block(cf.graph.root, g.block)
    for v in cf.graph.variables:
        if v not in g.variables:
            g.variables.append(v)

    def struct(x):
        if isinstance(x, SymbolicTensor):
            return get(x)
        if isinstance(x, dict):
            return {k: struct(v) for k, v in x.items()}
        if isinstance(x, list):
            return [struct(v) for v in x]
        if isinstance(x, tuple):
            return tuple(struct(v) for v in x)
        return x

    return struct(cf.structured_outputs)


def _option_text(cf):
    lines = [f"  Positional arguments ({len(cf._params)} total):"]
    for p, a in zip(cf._params, cf._arg_values):
        lines.append(f"    * {p}: {_arg_text(a)}")
    lines.append("  Keyword arguments: {}")
    return "\n".join(lines)


def _symbolic(values):
    from autograph_cli.runtime import nest

    try:
        return any(isinstance(x, SymbolicTensor) for x in nest.flatten(list(values)))
    except (TypeError, ValueError):
        return False


class LoadedFunction:
    """A function restored from a SavedModel: calls the first concrete
    function that accepts its arguments."""

    def __init__(self, name, concretes):
        self.__name__ = name
        self._name = name
        self.concrete_functions = tuple(concretes)

    def __call__(self, *args, **kwargs):
        from autograph_cli.runtime.context import ctx

        if ctx.graph is not None:  # called while tracing: the saved graph is inlined into the caller's
            for cf in self.concrete_functions:
                bound = _bind_symbolic(cf, args, kwargs, ctx.graph)
                if bound is not None:
                    return _inline(cf, bound, ctx.graph)
            args = tuple(_shape_only(a) for a in args)
        elif _symbolic(args) or _symbolic(list(kwargs.values())):
            raise TypeError(f"{self._name}: symbolic tensors given outside a trace")
        for cf in self.concrete_functions:
            values = _bind(cf, args, kwargs)
            if values is not None:
                return cf._run(values)
        if not self.concrete_functions:
            raise ValueError(f"{self._name}: the function had no traces when it was saved (no concrete functions "
                             "were traced and it has no input_signature), so the SavedModel cannot call it")
        got = [f"    * {_describe_arg(a)}" for a in args]
        options = "\n\n".join(f"Option {i + 1}:\n{_option_text(cf)}" for i, cf in enumerate(self.concrete_functions))
        raise ValueError(
            f"Could not find matching concrete function to call loaded from the SavedModel ({self._name}). Got:\n"
            f"  Positional arguments ({len(args)} total):\n" + "\n".join(got) + "\n"
            f"  Keyword arguments: {kwargs!r}\n\n Expected these arguments to match one of the following "
            f"{len(self.concrete_functions)} option(s):\n\n{options}")

    def get_concrete_function(self, *args, **kwargs):
        if not args and not kwargs and len(self.concrete_functions) == 1:
            return self.concrete_functions[0]
        specs = [a if isinstance(a, TensorSpec) else None for a in args]
        for cf in self.concrete_functions:
            traced = [a for a in cf._arg_values]
            if len(traced) != len(args):
                continue
            ok = True
            for t, a, s in zip(traced, args, specs):
                if isinstance(t, SymbolicTensor):
                    if s is not None:
                        ok = s.dtype is t.dtype and s.shape.is_subtype_of(t.shape)
                    else:
                        ok = _match_tensor(t, a) is not None
                elif not _same_static(a, t):
                    ok = False
                if not ok:
                    break
            if ok:
                return cf
        raise ValueError(f"{self._name}: no saved concrete function matches {args!r}; saved: "
                         + "; ".join(cf.pretty_printed_signature() for cf in self.concrete_functions))

    def pretty_printed_concrete_signatures(self, verbose=True):
        return "\n\n".join(cf.pretty_printed_signature() for cf in self.concrete_functions)

    def __repr__(self):
        return f"<LoadedFunction {self._name} ({len(self.concrete_functions)} concrete function(s))>"


class SignatureFunction:
    """A signature: tensors in by name, a dict of named tensors out."""

    def __init__(self, name, cf, data):
        self.name = name
        self.concrete_function = cf
        self.input_names = [i["name"] for i in data["inputs"]]
        self.output_names = [o["name"] for o in data["outputs"]]
        self.inputs = cf.inputs
        self.outputs = cf.outputs
        self.structured_input_signature = ((), {n: TensorSpec(p.shape, p.dtype, n)
                                                for n, p in zip(self.input_names, cf.inputs)})
        self.structured_outputs = {n: TensorSpec(o.shape, o.dtype, n) for n, o in zip(self.output_names, cf.outputs)}
        self.graph = cf.graph

    def __call__(self, *args, **kwargs):
        names = self.input_names
        if len(args) > len(names):
            raise TypeError(f"signature {self.name!r} takes {len(names)} inputs ({', '.join(names)}); got {len(args)}")
        given = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"signature {self.name!r} has no input {k!r}; its inputs: {', '.join(names)}")
            if k in given:
                raise TypeError(f"signature {self.name!r}: input {k!r} given twice")
            given[k] = v
        missing = [n for n in names if n not in given]
        if missing:
            raise TypeError(f"signature {self.name!r}: missing input(s) {', '.join(missing)}")
        values = []
        for n, p in zip(names, self.inputs):
            v = _match_tensor(p, given[n])
            if v is None:
                a = given[n]
                raise ValueError(
                    f"signature {self.name!r}: input {n!r} must be a {p.dtype.name} tensor of shape {p.shape}; "
                    f"got {_describe_arg(a)}")
            values.append(v)
        return self._call(values)

    def _call(self, values):
        cf = self.concrete_function
        try:
            outs = cf._fn(*values)
        except (IndexError, ZeroDivisionError, ValueError, InvalidArgumentError) as e:
            raise cf._located(e) from None
        return {n: EagerTensor(v, o.dtype) for n, v, o in zip(self.output_names, outs, cf.outputs)}

    def __repr__(self):
        return f"<SignatureFunction {self.name}: ({', '.join(self.input_names)}) -> ({', '.join(self.output_names)})>"


class _Signatures(dict):
    def __repr__(self):
        return f"_SignatureMap({sorted(self)})"


class _UserObject(Module):
    """An object restored from a SavedModel (TensorFlow's _UserObject)."""

    def __init__(self, class_name="object"):
        super().__init__(name=class_name)
        self._class_name = class_name

    def __call__(self, *args, **kwargs):
        f = self.__dict__.get("__call__")
        if f is None:
            raise TypeError(f"the restored {self._class_name} object is not callable (it had no tf.function __call__)")
        return f(*args, **kwargs)

    def __repr__(self):
        return f"<restored {self._class_name}>"


class _LoadedRoot(LoadedFunction):
    pass


def load(export_dir: str | os.PathLike[str], tags: Any = None, options: Any = None) -> Any:
    """Restore what `save` wrote to `export_dir`."""
    export_dir = os.fspath(export_dir)
    r = _Reader(export_dir)
    meta = r.meta
    if not isinstance(meta, dict):
        raise r.bad("top level must be an object")
    variables = _variables(r)
    concretes = _concretes(r, variables)
    nodes = meta.get("objects")
    if not isinstance(nodes, list) or not nodes:
        raise r.bad("'objects' must be a non-empty list")
    built = [None] * len(nodes)

    def get(i):
        if not isinstance(i, int) or not 0 <= i < len(nodes):
            raise r.bad(f"object graph refers to object #{i}, which does not exist")
        if built[i] is None:
            built[i] = make(i)
        return built[i]

    def make(i):
        nd = nodes[i]
        kind = nd.get("kind") if isinstance(nd, dict) else None
        if kind == "variable":
            j = nd["variable"]
            if not isinstance(j, int) or not 0 <= j < len(variables):
                raise r.bad(f"object #{i} refers to variable #{j}, which does not exist")
            return variables[j]
        if kind == "function":
            cfs = []
            for n in nd["concrete_functions"]:
                if n not in concretes:
                    raise r.bad(f"function {nd.get('name')!r} refers to concrete function {n!r}, which does not exist")
                cfs.append(concretes[n])
            cls = _LoadedRoot if i == 0 else LoadedFunction
            return cls(nd["name"], cfs)
        if kind == "list":
            out = []
            built[i] = out
            out.extend(get(j) for j in nd["items"])
            return out
        if kind == "dict":
            out = {}
            built[i] = out
            out.update({k: get(j) for k, j in nd["items"].items()})
            return out
        if kind == "object":
            obj = _UserObject(nd.get("class", "object"))
            built[i] = obj
            for name, j in nd["children"].items():
                object.__setattr__(obj, name, get(j))
            return obj
        raise r.bad(f"object #{i} has unknown kind {kind!r}")

    root = get(0)
    sigs = _Signatures()
    table = meta.get("signatures", {})
    for name, data in table.items():
        cf = concretes.get(data.get("concrete_function"))
        if cf is None:
            raise r.bad(f"signature {name!r} refers to a concrete function that does not exist")
        sigs[name] = SignatureFunction(name, cf, data)
    try:
        root.signatures = sigs
    except AttributeError:
        pass
    if isinstance(root, LoadedFunction):
        root.variables = tuple(variables)
        root.trainable_variables = tuple(v for v in variables if v.trainable)
    return root

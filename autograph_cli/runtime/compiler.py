"""Compile a traced graph into ONE straight-line Python function over numpy.

Every node becomes a statement (or an expression inlined into one); staged
conds become `if`/`else`, staged loops real `while`/`for` loops. Constants are
closure variables. Only the nodes that the outputs and the side effects need
are emitted (the seeds' non-strict execution); nodes whose inputs are all
constants were evaluated while tracing and are emitted as constants.
"""
from __future__ import annotations

import numpy as np

from .tensor import SymbolicTensor

__all__ = ["compile_graph"]


def _mark(block, needed, kept):
    for node in reversed(block.nodes):
        if not node.effect:
            for o in node.outputs:
                if id(o) in needed and o.const is None:
                    break
            else:
                continue
        kept.add(node.id)
        for region in node.regions:
            if region is None:
                continue
            for r in region.results:
                if isinstance(r, SymbolicTensor):
                    needed.add(id(r))
            _mark(region, needed, kept)
        for t in node.inputs:
            needed.add(id(t))


class _Emitter:
    def __init__(self, graph):
        self.graph = graph
        self.lines = []
        self.names = {}  # id(tensor) -> expression
        self.consts = []  # values bound as closure variables
        self.const_names = {}  # id(value) -> name
        self.counter = 0
        self.kept = set()
        self.uses = {}
        self.use_block = {}
        self.line_nodes = {}  # index in lines -> node emitted there

    def count_uses(self, block):
        """How often, and from which block, each tensor is used."""
        for node in block.nodes:
            if node.id not in self.kept:
                continue
            for t in node.inputs:
                self._use(t, block)
            for region in node.regions:
                if region is None:
                    continue
                for r in region.results:
                    self._use(r, region)
                self.count_uses(region)

    def _use(self, t, block):
        k = id(t)
        self.uses[k] = self.uses.get(k, 0) + 1
        self.use_block[k] = block

    def inlinable(self, node):
        o = node.outputs[0]
        op = node.opdef
        return (
            not op.effect
            and not op.nofold
            and self.uses.get(id(o)) == 1
            and self.use_block.get(id(o)) is node.block
        )

    def bind(self, value):
        key = id(value)
        name = self.const_names.get(key)
        if name is None:
            name = f"c{len(self.consts)}"
            self.consts.append(value)
            self.const_names[key] = name
        return name

    def fresh(self, prefix="t"):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def ref(self, t):
        if t.const is not None:
            return self.bind(t.const)
        name = self.names.get(id(t))
        if name is None:
            raise RuntimeError(f"internal error: tensor {t.name} used before it is computed")
        return name

    def emit_block(self, block, indent):
        pad = "    " * indent
        lines = self.lines
        for node in block.nodes:
            if node.id not in self.kept:
                continue
            kind = node.op
            special = _SPECIAL.get(kind)
            if special is not None:
                special(self, node, indent)
                continue
            args = [self.ref(t) for t in node.inputs]
            expr = node.opdef.emit(node, args, self.bind)
            outs = node.outputs
            if len(outs) == 1 and self.inlinable(node):
                # used once, later in this same block: the expression goes there
                self.names[id(outs[0])] = expr if expr.startswith("(") else f"({expr})"
                continue
            self.line_nodes[len(lines)] = node
            if len(outs) == 1:
                name = self.fresh()
                self.names[id(outs[0])] = name
                lines.append(f"{pad}{name} = {expr}")
            elif not outs:
                lines.append(f"{pad}{expr}")
            else:
                names = []
                for o in outs:
                    name = self.fresh()
                    self.names[id(o)] = name
                    names.append(name)
                lines.append(f"{pad}{', '.join(names)}, = {expr}")


def _emit_suite(em, block, outs, indent) -> None:
    """The block's nodes and its results under one indented suite (``pass``
    when it has nothing to run)."""
    start = len(em.lines)
    em.emit_block(block, indent)
    _emit_results(em, block, outs, indent)
    if len(em.lines) == start:
        em.lines.append("    " * indent + "pass")


def _emit_results(em, block, targets, indent):
    pad = "    " * indent
    srcs = [em.ref(r) for r in block.results]
    pairs = [(t, s) for t, s in zip(targets, srcs) if t != s]
    if not pairs:
        return
    if len(pairs) == 1:
        em.lines.append(f"{pad}{pairs[0][0]} = {pairs[0][1]}")
    else:
        em.lines.append(f"{pad}{', '.join(t for t, _ in pairs)} = {', '.join(s for _, s in pairs)}")


def _emit_cond(em, node, indent):
    pad = "    " * indent
    pred = em.ref(node.inputs[0])
    outs = []
    for o in node.outputs:
        name = em.fresh("r")
        outs.append(name)
    then_b, else_b = node.regions
    em.lines.append(f"{pad}if {pred}:")
    _emit_suite(em, then_b, outs, indent + 1)
    em.lines.append(f"{pad}else:")
    _emit_suite(em, else_b, outs, indent + 1)
    for o, name in zip(node.outputs, outs):
        em.names[id(o)] = name


def _loop_var_names(em, blocks, n, offset=0):
    names = [em.fresh("v") for _ in range(n)]
    for b in blocks:
        if b is None:
            continue
        for a, name in zip(b.args[offset:], names):
            em.names[id(a)] = name
    return names


def _emit_test(em, block, indent):
    """Lines computing a loop test block; returns (lines, result_expr)."""
    saved, saved_map = em.lines, em.line_nodes
    em.lines, em.line_nodes = [], {}
    em.emit_block(block, indent)
    lines, inner_map = em.lines, em.line_nodes
    em.lines, em.line_nodes = saved, saved_map
    em.pending_map = inner_map
    res = em.ref(block.results[0])
    if not lines:
        return [], res
    if len(lines) == 1:
        target, _, expr = lines[0].strip().partition(" = ")
        if target == res:
            return [], expr
    return lines, res


def _emit_while(em, node, indent):
    pad = "    " * indent
    cond_b, body_b = node.regions
    inits = [em.ref(t) for t in node.inputs]
    names = _loop_var_names(em, (cond_b, body_b), len(inits))
    if names:
        em.lines.append(f"{pad}{', '.join(names)} = {', '.join(inits)}")
    test_lines, test = _emit_test(em, cond_b, indent + 1)
    if not test_lines:
        em.lines.append(f"{pad}while {test}:")
    else:
        em.lines.append(f"{pad}while True:")
        base = len(em.lines)
        em.line_nodes.update({base + k: n for k, n in em.pending_map.items()})
        em.lines.extend(test_lines)
        em.lines.append(f"{pad}    if not {test}:")
        em.lines.append(f"{pad}        break")
    _emit_suite(em, body_b, names, indent + 1)
    for o, name in zip(node.outputs, names):
        em.names[id(o)] = name


def _emit_for(em, node, indent):
    """For / ReduceDataset: inputs = [iterable, *loop var inits]; body args =
    [*item components, *loop vars]; regions = (extra_test or None, body)."""
    pad = "    " * indent
    extra_b, body_b = node.regions
    n_item = node.attrs["n_item"]
    n_src = node.attrs.get("n_src", 1)
    iterables = node.inputs[:n_src]
    inits = [em.ref(t) for t in node.inputs[n_src:]]
    names = [em.fresh("v") for _ in inits]
    for b in (extra_b, body_b):
        if b is None:
            continue
        off = n_item if b is body_b else 0
        for a, name in zip(b.args[off:], names):
            em.names[id(a)] = name
    items = [em.fresh("i") for _ in range(n_item)]
    for a, name in zip(body_b.args[:n_item], items):
        em.names[id(a)] = name
    if names:
        em.lines.append(f"{pad}{', '.join(names)} = {', '.join(inits)}")
    if n_src > 1:
        src = f"zip({', '.join(em.ref(t) for t in iterables)})"
    else:
        src = em.ref(iterables[0])
    if node.attrs.get("dataset"):
        src = f"{src}._iter_values()"
    target = items[0] if node.attrs.get("single_item", n_item == 1) else "(" + ", ".join(items) + ",)"
    # over an iterator (a dataset's), the extra test (break flags) runs before
    # the next element is taken: an element a break leaves stays for a later
    # loop over the same iterator, as with Python's for
    pull_after_test = extra_b is not None and node.attrs.get("dataset")
    if pull_after_test:
        it = em.fresh("it")
        em.lines.append(f"{pad}{it} = iter({src})")
        em.lines.append(f"{pad}while True:")
    else:
        em.lines.append(f"{pad}for {target} in {src}:")
    start = len(em.lines)
    if extra_b is not None:
        test_lines, test = _emit_test(em, extra_b, indent + 1)
        base = len(em.lines)
        em.line_nodes.update({base + k: n for k, n in em.pending_map.items()})
        em.lines.extend(test_lines)
        em.lines.append(f"{pad}    if not {test}:")
        em.lines.append(f"{pad}        break")
    if pull_after_test:
        em.lines.append(f"{pad}    try:")
        em.lines.append(f"{pad}        {target} = next({it})")
        em.lines.append(f"{pad}    except StopIteration:")
        em.lines.append(f"{pad}        break")
    em.emit_block(body_b, indent + 1)
    _emit_results(em, body_b, names, indent + 1)
    if len(em.lines) == start:
        em.lines.append(f"{pad}    pass")
    for o, name in zip(node.outputs, names):
        em.names[id(o)] = name


def _emit_placeholder(em, node, indent):
    pass


_SPECIAL = {"If": _emit_cond, "While": _emit_while, "For": _emit_for, "ReduceDataset": _emit_for, "Placeholder": _emit_placeholder}


def compile_graph(graph, inputs, outputs, name="fn"):
    """Returns (python function taking the input values and returning a tuple
    of output values, its source)."""
    em = _Emitter(graph)
    needed = set()
    for o in outputs:
        needed.add(id(o))
    _mark(graph.root, needed, em.kept)
    for o in outputs:
        em._use(o, None)  # outputs are read at the end: never inlined away
    em.count_uses(graph.root)
    params = []
    for i, t in enumerate(inputs):
        p = f"a{i}"
        params.append(p)
        em.names[id(t)] = p
    em.emit_block(graph.root, 2)
    rets = [em.ref(o) for o in outputs]
    body = em.lines or []
    ret = "return (" + ", ".join(rets) + ("," if len(rets) == 1 else "") + ")"
    fname = "".join(ch if ch.isalnum() else "_" for ch in name) or "fn"
    src_lines = [f"def __make({', '.join(['np'] + [f'c{i}' for i in range(len(em.consts))])}):"]
    src_lines.append(f"    def {fname}({', '.join(params)}):")
    src_lines.extend(body)
    src_lines.append(f"        {ret}")
    src_lines.append(f"    return {fname}")
    src = "\n".join(src_lines) + "\n"
    ns: dict = {"__name__": __name__}  # numpy's warnings from it are the runtime's (see runtime/__init__)
    code = compile(src, f"<graph {name}>", "exec")
    exec(code, ns)  # noqa: S102 - our own generated code
    fn = ns["__make"](np, *em.consts)
    # generated line number -> node (the body starts on line 3)
    fn._line_nodes = {i + 3: n for i, n in em.line_nodes.items()}
    return fn, src

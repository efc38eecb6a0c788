"""``autograph graph PATH::FUNC --arg SPEC ...``: trace a function with the
numpy runtime and show its graph as a tree (nodes, ops, the regions of conds
and loops), optionally as Graphviz dot.

An argument spec is a tensor spec -- ``int32[None]``, ``float32[3,3]``,
``bool[]`` (a scalar; a bare ``int32`` too) -- or a Python literal (``3``,
``'relu'``, ``(1, 2)``), which is passed as a Python value.
"""
from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import os
import re
import sys
import traceback

__all__ = ["parse_spec", "show_graph"]

_SPEC = re.compile(r"^\s*([A-Za-z]+[0-9]*)\s*(?:\[(.*)\])?\s*$")


class _Bad(Exception):
    pass


def parse_spec(text: str):
    """A TensorSpec for ``dtype[dims]``, else the Python literal."""
    m = _SPEC.match(text)
    if m:
        from autograph_cli.runtime import TensorSpec, dtypes

        try:
            dtype = dtypes.as_dtype(m.group(1))
        except (TypeError, ValueError, KeyError):
            dtype = None
        if dtype is not None:
            dims: list[int | None] = []
            body = (m.group(2) or "").strip()
            for part in filter(None, (p.strip() for p in body.split(","))):
                if part in ("None", "?", "-1", "_"):
                    dims.append(None)
                elif part.isdigit():
                    dims.append(int(part))
                else:
                    raise _Bad(f"--arg {text!r}: dimension {part!r} is not a size or None")
            return TensorSpec(dims, dtype)
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise _Bad(f"--arg {text!r}: neither a tensor spec (int32[None], float32[3,3], bool[]) nor a Python literal") from None


def _load_module(path: str):
    name = os.path.splitext(os.path.basename(path))[0]
    if not name.isidentifier() or name in sys.modules:
        name = "__autograph_graph__"
    # (the loader named: any file name is Python source, as for ``python PATH``)
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:  # (not with a loader given)
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    loader.exec_module(module)
    return module


def _user_location(e: BaseException, path: str) -> int:
    target = os.path.abspath(path)
    line = 1
    for frame in traceback.extract_tb(e.__traceback__):
        if os.path.abspath(frame.filename) == target:
            line = frame.lineno or line
    return line


def _resolve(module, qualname: str, path: str):
    from autograph_cli import runtime

    obj = module
    parts = qualname.split(".")
    owner = None
    for part in parts:
        try:
            owner, obj = obj, getattr(obj, part)
        except AttributeError:
            raise _Bad(f"{path}:1:1: no function named {qualname!r}") from None
    if isinstance(owner, type) and len(parts) > 1:
        # A method: trace it bound to an instance made without arguments.
        try:
            instance = owner()
        except Exception as e:
            raise _Bad(f"{path}:1:1: {qualname} is a method and {owner.__name__}() failed: {e}") from None
        obj = getattr(instance, parts[-1])
    if hasattr(obj, "get_concrete_function"):
        return obj
    if callable(obj):
        return runtime.function(obj)
    raise _Bad(f"{path}:1:1: {qualname} is not a function")


# -- rendering ----------------------------------------------------------------------


def _tname(t) -> str:
    name = getattr(t, "name", None)
    if name:
        return name[:-2] if name.endswith(":0") else name
    return repr(t)


def _ttype(t) -> str:
    try:
        dims = t.shape.dims
    except AttributeError:
        return "?"
    shape = "?" if dims is None else ",".join("None" if d is None else str(d) for d in dims)
    dtype = getattr(t.dtype, "name", str(t.dtype))
    return f"{dtype}[{shape}]"


def _const_text(node) -> str:
    value = (node.attrs or {}).get("value")
    if value is None:
        return ""
    text = repr(value.tolist() if hasattr(value, "tolist") else value)
    return text if len(text) <= 40 else text[:37] + "..."


def _node_label(node) -> str:
    outs = ", ".join(_ttype(o) for o in node.outputs) or "()"
    if node.op == "Const":
        args = _const_text(node)
    elif node.op == "Placeholder":
        args = ""
    else:
        args = ", ".join(_tname(i) for i in node.inputs)
    return f"{node.name} = {node.op}({args}) : {outs}"


def _region_title(node, i, block) -> str:
    kind = getattr(block, "kind", None) or f"region {i}"
    args = ", ".join(f"{_tname(a)}: {_ttype(a)}" for a in block.args)
    return f"{kind}({args})" if args else kind


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _fill(tree, block, counts):
    for node in block.nodes:
        counts[node.op] = counts.get(node.op, 0) + 1
        label = _escape(_node_label(node))
        if node.regions:
            branch = tree.add(f"[bold]{label}[/bold]")
            for i, region in enumerate(node.regions):
                if region is None:
                    continue
                _fill(branch.add(f"[italic]{_escape(_region_title(node, i, region))}[/italic]"), region, counts)
        else:
            tree.add(label)
    if block.results:
        tree.add(_escape("-> " + ", ".join(_tname(r) for r in block.results)))


def _render(cf, title: str, color: bool) -> str:
    from rich.console import Console
    from rich.tree import Tree

    graph = cf.graph
    ins = ", ".join(f"{_tname(t)}: {_ttype(t)}" for t in graph.inputs)
    outs = ", ".join(_ttype(t) for t in graph.outputs) or "()"
    counts: dict[str, int] = {}
    tree = Tree(f"[bold]{_escape(f'{title}({ins}) -> {outs}')}[/bold]", guide_style="dim")
    _fill(tree, graph.root, counts)
    console = Console(file=sys.stdout, force_terminal=color, no_color=not color, highlight=False, width=120)
    with console.capture() as cap:
        console.print(tree)
    total = sum(counts.values())
    summary = f"{total} nodes: " + ", ".join(f"{op} {n}" for op, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return cap.get() + summary + "\n"


def _dot(cf, title: str) -> str:
    def q(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

    ids: dict[int, str] = {}
    lines = [f"digraph {q(title)} {{", '  rankdir=TB;', '  node [shape=box, fontname="monospace", fontsize=10];']
    edges: list[str] = []

    def tid(t) -> str:
        if getattr(t, "node", None) is not None:
            return ids.setdefault(id(t.node), f"n{len(ids)}")
        return ids.setdefault(id(t), f"a{len(ids)}")

    def block(b, indent):
        pad = "  " * indent
        for a in b.args:
            lines.append(f"{pad}{tid(a)} [label={q(_tname(a) + ' : ' + _ttype(a))}, shape=ellipse];")
        for node in b.nodes:
            me = ids.setdefault(id(node), f"n{len(ids)}")
            for t in node.inputs:
                edges.append(f"  {tid(t)} -> {me};")
            if node.regions:
                lines.append(f"{pad}{me} [label={q(_node_label(node))}, style=bold];")
                for i, region in enumerate(node.regions):
                    if region is None:
                        continue
                    lines.append(f"{pad}subgraph cluster_{me}_{i} {{")
                    lines.append(f"{pad}  label={q(node.name + ': ' + (getattr(region, 'kind', None) or str(i)))};")
                    block(region, indent + 1)
                    for r in region.results:
                        edges.append(f"  {tid(r)} -> {me} [style=dashed];")
                    lines.append(f"{pad}}}")
            else:
                lines.append(f"{pad}{me} [label={q(_node_label(node))}];")

    block(cf.graph.root, 1)
    for i, t in enumerate(cf.graph.outputs):
        lines.append(f"  out{i} [label={q('output ' + str(i) + ' : ' + _ttype(t))}, shape=ellipse];")
        edges.append(f"  {tid(t)} -> out{i};")
    lines.extend(edges)
    lines.append("}")
    return "\n".join(lines) + "\n"


def show_graph(target: str, arg_specs: list[str], dot: str | None, color: bool) -> int:
    if "::" not in target:
        sys.stderr.write(f"{target}:1:1: expected PATH::FUNC (e.g. samples/collatz.py::collatz)\n")
        return 2
    path, qualname = target.rsplit("::", 1)
    from autograph_cli._cli.files import SourceError, read_source

    try:
        read_source(path)  # missing, binary, undecodable: one located line
        specs = [parse_spec(s) for s in arg_specs]
    except SourceError as e:
        sys.stderr.write(f"{e}\n")
        return 2
    except _Bad as e:
        sys.stderr.write(f"{path}:1:1: {e}\n")
        return 2
    if dot and os.path.isdir(dot):
        sys.stderr.write(f"{dot}:1:1: --dot needs a file; this is a directory\n")
        return 2
    try:
        module = _load_module(path)
    except SystemExit as e:
        sys.stderr.write(f"{path}:{_user_location(e, path)}:1: importing it exited (SystemExit: {e.code!r})\n")
        return 2
    except SyntaxError as e:
        sys.stderr.write(f"{path}:{e.lineno or 1}:{e.offset or 1}: {e.msg}\n")
        return 2
    except Exception as e:
        sys.stderr.write(f"{path}:{_user_location(e, path)}:1: importing failed: {type(e).__name__}: {e}\n")
        return 2
    try:
        fn = _resolve(module, qualname, path)
    except _Bad as e:
        sys.stderr.write(f"{e}\n")
        return 2
    try:
        cf = fn.get_concrete_function(*specs)
    except SystemExit as e:
        sys.stderr.write(f"{path}:{_user_location(e, path)}:1: tracing {qualname} exited (SystemExit: {e.code!r})\n")
        return 2
    except Exception as e:
        message = str(e).strip().splitlines()[0] if str(e).strip() else ""
        line = _user_location(e, path)
        m = re.match(r"^(.*?):(\d+):\s*(.*)$", message)
        if m and os.path.abspath(m.group(1)) == os.path.abspath(path):
            line, message = int(m.group(2)), m.group(3)  # the runtime located it already
        sys.stderr.write(f"{path}:{line}:1: tracing {qualname} failed: {type(e).__name__}: {message}\n")
        return 2
    if dot:  # first: a path that cannot be written fails before any output
        from autograph_cli._cli.files import atomic_write

        try:
            atomic_write(dot, _dot(cf, qualname).encode())
        except SourceError as e:
            sys.stderr.write(f"{e}\n")
            return 2
    sys.stdout.write(_render(cf, qualname, color))
    sys.stdout.flush()
    return 0

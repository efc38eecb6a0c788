"""A loaded graph's generated code, checked before it is compiled.

The runtime's compiler turns a graph into Python source, and some op emitters
write attribute values into that source. A SavedModel's attributes come from
a file, so before handing a loaded graph to `compile_graph` its source is
generated the same way and checked against the shapes of code the emitters
produce: names the emitter makes (a0, t3, c1 ...), numpy functions that do no
I/O, no imports, lambdas, definitions or underscore attributes (but the
Variable hooks). A file whose attributes would smuggle code in is refused.
"""
from __future__ import annotations

import ast
import re

from autograph_cli.runtime import compiler as _c

from .format import SavedModelError

_NAME = re.compile(r"^[acirtv]\d+$")
_BUILTINS = {"np", "int", "float", "bool", "len", "tuple", "list", "zip", "range", "abs", "min", "max", "slice",
             "None", "True", "False"}
_HOOKS = {"_read_value", "_assign_value", "_assign_add_value", "_assign_sub_value", "_init_once", "_iter_values",
          "_next_values"}
_NP_DENY = {"load", "save", "savez", "savez_compressed", "fromfile", "loadtxt", "savetxt", "genfromtxt", "memmap",
            "lib", "ctypeslib", "fromregex", "DataSource", "f2py", "distutils", "testing", "os", "sys", "tofile",
            "frompyfunc", "vectorize", "piecewise", "apply_along_axis", "apply_over_axes", "set_printoptions",
            "seterr", "seterrcall", "setbufsize", "show_config", "info", "source", "who", "exec_command", "core"}
_NP_SUBMODULES = {"linalg", "fft", "random", "char", "ma", "emath"}
# the reductions emit np.<ufunc>.reduce (runtime/ops/math.py: _REDUCE_UFUNC)
_NP_UFUNC_REDUCE = {"add", "multiply", "maximum", "minimum", "logical_or", "logical_and"}
_NODES = {
    "Module", "FunctionDef", "arguments", "arg", "Return", "Assign", "AugAssign", "Expr", "If", "While", "For",
    "Break", "Continue", "Pass", "Name", "Load", "Store", "Constant", "Attribute", "Call", "keyword", "Starred",
    "Tuple", "List", "Subscript", "Slice", "Index", "ExtSlice", "BinOp", "UnaryOp", "BoolOp", "Compare", "IfExp",
    "Add", "Sub", "Mult", "MatMult", "Div", "FloorDiv", "Mod", "Pow", "LShift", "RShift", "BitOr", "BitXor",
    "BitAnd", "Invert", "Not", "UAdd", "USub", "And", "Or", "Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot",
    "In", "NotIn",
}


def generated_source(graph, inputs, outputs, name):
    """The source `compile_graph` will generate (its own steps, without exec)."""
    em = _c._Emitter(graph)
    needed = {id(o) for o in outputs}
    _c._mark(graph.root, needed, em.kept)
    for o in outputs:
        em._use(o, None)
    em.count_uses(graph.root)
    for i, t in enumerate(inputs):
        em.names[id(t)] = f"a{i}"
    em.emit_block(graph.root, 2)
    for o in outputs:
        em.ref(o)
    return "\n".join(em.lines) + "\n"


def check(graph, inputs, outputs, name, where):
    try:
        body = generated_source(graph, inputs, outputs, name)
    except Exception as e:  # noqa: BLE001 - a malformed graph the emitters reject
        raise SavedModelError(f"{where}: the graph cannot be compiled ({type(e).__name__}: {e})") from None
    try:
        tree = ast.parse(_dedent(body))
    except SyntaxError as e:
        raise SavedModelError(f"{where}: the graph's attributes do not compile ({e.msg}); refusing it") from None
    for node in ast.walk(tree):
        kind = type(node).__name__
        bad = None
        if kind not in _NODES or kind == "FunctionDef":
            bad = f"a {kind}"
        elif kind == "Name" and not (_NAME.match(node.id) or node.id in _BUILTINS):
            bad = f"the name {node.id!r}"
        elif kind == "Attribute":
            base = node.value
            if isinstance(base, ast.Name) and base.id == "np":
                if node.attr.startswith("_") or node.attr in _NP_DENY:
                    bad = f"np.{node.attr}"
            elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "np":
                if not (base.attr in _NP_SUBMODULES or (base.attr in _NP_UFUNC_REDUCE and node.attr == "reduce")) \
                        or node.attr.startswith("_"):
                    bad = f"np.{base.attr}.{node.attr}"
            elif node.attr.startswith("_") and node.attr not in _HOOKS:
                bad = f"the attribute {node.attr!r}"
        if bad is not None:
            raise SavedModelError(
                f"{where}: its graph would compile to code with {bad}, which the runtime never emits "
                "(a tampered attribute?); refusing to run it")


def _dedent(body):
    import textwrap

    return textwrap.dedent(body) or "pass\n"

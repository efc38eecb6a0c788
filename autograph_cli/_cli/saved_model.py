"""``autograph saved-model show DIR``, ``autograph saved-model run DIR
--signature NAME --input x=VALUE`` and ``autograph saved-model graph DIR
--signature NAME|--function PATH [--dot FILE]``: inspect, run and draw a
SavedModel written by ``tf.saved_model.save`` (like TensorFlow's saved_model_cli).

Exit codes: 0 done; 1 the model ran and failed (an op raised); 2 the
directory is not a valid SavedModel, or the arguments are wrong.
"""
from __future__ import annotations

import json
import os
import sys

import click

__all__ = ["saved_model_group"]


class _Bad(Exception):
    pass


def _dt_enum(dtype):
    return "DT_" + {"float32": "FLOAT", "float64": "DOUBLE", "int32": "INT32", "int64": "INT64", "bool": "BOOL",
                    "string": "STRING", "float16": "HALF"}.get(dtype.name, dtype.name.upper())


def _shape_text(shape):
    if shape.dims is None:
        return "unknown_rank"
    dims = ["-1" if d is None else str(d) for d in shape.dims]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def _load(directory):
    from autograph_cli.saved_model import SavedModelError, load

    try:
        return load(directory)
    except SavedModelError as e:
        raise _Bad(str(e)) from None
    except OSError as e:
        raise _Bad(f"{directory}: cannot read: {e}") from None


def _show(directory, only):
    m = _load(directory)
    sigs = getattr(m, "signatures", {})
    out = []
    if only is not None and only not in sigs:
        raise _Bad(f"{directory}: no signature {only!r}; the SavedModel has: {', '.join(sorted(sigs)) or '(none)'}")
    out.append("MetaGraphDef with tag-set: 'serve' contains the following SignatureDefs:")
    out.append("")
    for name in sorted(sigs):
        if only is not None and name != only:
            continue
        s = sigs[name]
        out.append(f"signature_def[{name!r}]:")
        out.append("  The given SavedModel SignatureDef contains the following input(s):")
        for n, t in zip(s.input_names, s.inputs):
            out += [f"    inputs[{n!r}] tensor_info:", f"        dtype: {_dt_enum(t.dtype)}",
                    f"        shape: {_shape_text(t.shape)}", f"        name: {n}"]
        out.append("  The given SavedModel SignatureDef contains the following output(s):")
        for n, t in zip(s.output_names, s.outputs):
            out += [f"    outputs[{n!r}] tensor_info:", f"        dtype: {_dt_enum(t.dtype)}",
                    f"        shape: {_shape_text(t.shape)}", f"        name: {n}"]
        out.append("  Method name is: tensorflow/serving/predict")
        out.append("")
    if only is None:
        funcs = []
        _functions(m, "", funcs, set())
        if funcs:
            out.append("Concrete Functions:")
            for path, f in funcs:
                out.append(f"  Function Name: {path!r}")
                for i, cf in enumerate(f.concrete_functions):
                    out.append(f"    Option #{i + 1}")
                    out.extend("      " + line for line in cf.pretty_printed_signature().splitlines())
            out.append("")
        variables = list(getattr(m, "variables", ()))
        if variables:
            out.append("Variables:")
            for v in variables:
                out.append(f"  {v._name}: {v.dtype.name} {_shape_text(v.shape)}")
    click.echo("\n".join(out).rstrip())


def _functions(obj, prefix, out, seen):
    from autograph_cli.saved_model import LoadedFunction

    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, LoadedFunction):
        out.append((prefix or "__call__", obj))
        return
    items = []
    if isinstance(obj, (list, tuple)):
        items = [(f"{prefix}[{i}]", x) for i, x in enumerate(obj)]
    elif isinstance(obj, dict):
        items = [(f"{prefix}[{k!r}]", x) for k, x in obj.items()]
    elif hasattr(obj, "__dict__"):
        items = [(f"{prefix}.{k}" if prefix else k, x) for k, x in sorted(vars(obj).items())
                 if k not in ("signatures", "_name", "_class_name")]
    for p, x in items:
        _functions(x, p, out, seen)


def _parse_input(text, directory):
    import numpy as np

    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise _Bad(f"{directory}: --input {text!r}: expected NAME=VALUE (a JSON literal or a path to a .npy file)")
    if value.endswith(".npy") and os.path.exists(value):
        try:
            return name, np.load(value, allow_pickle=False)
        except (ValueError, OSError, EOFError) as e:
            raise _Bad(f"{value}: --input {name}: not a readable .npy array ({e})") from None
    try:
        return name, json.loads(value)
    except ValueError as e:
        if value.endswith(".npy"):
            raise _Bad(f"{value}: --input {name}: no such file") from None
        raise _Bad(f"{directory}: --input {name}: {value!r} is neither JSON nor a .npy file ({e.msg})") from None


def _coerce(value, spec, name, directory):
    import numpy as np

    if isinstance(value, np.ndarray):
        return value
    arr = np.asarray(value)
    target = spec.dtype.np
    if target is None or arr.dtype.kind in "OUS":
        return value
    if arr.dtype.kind == "f" and np.dtype(target).kind in "iub":
        raise _Bad(f"{directory}: --input {name}: {json.dumps(value)} has floats but the input is {spec.dtype.name}")
    return arr.astype(target)


def _run(directory, signature, inputs, as_json):
    from autograph_cli.runtime.errors import InvalidArgumentError

    m = _load(directory)
    sigs = getattr(m, "signatures", {})
    if signature is None:
        if len(sigs) == 1:
            signature = next(iter(sigs))
        else:
            raise _Bad(f"{directory}: give --signature (the SavedModel has: {', '.join(sorted(sigs)) or 'none'})")
    s = sigs.get(signature)
    if s is None:
        raise _Bad(f"{directory}: no signature {signature!r}; the SavedModel has: {', '.join(sorted(sigs)) or '(none)'}")
    given = {}
    for text in inputs:
        name, value = _parse_input(text, directory)
        if name not in s.input_names:
            raise _Bad(f"{directory}: signature {signature!r} has no input {name!r}; its inputs: "
                       f"{', '.join(s.input_names) or '(none)'}")
        given[name] = _coerce(value, s.inputs[s.input_names.index(name)], name, directory)
    missing = [n for n in s.input_names if n not in given]
    if missing:
        raise _Bad(f"{directory}: signature {signature!r} needs --input for: {', '.join(missing)}")
    try:
        outs = s(**given)
    except (TypeError, ValueError) as e:
        raise _Bad(f"{directory}: {str(e).splitlines()[0]}") from None
    except (InvalidArgumentError, ArithmeticError, IndexError) as e:
        msg = getattr(e, "message", None) or str(e)
        sys.stderr.write(f"{directory}: signature {signature!r} failed: {' '.join(msg.split())}\n")
        return 1
    if as_json:
        click.echo(json.dumps({k: _jsonable(v.numpy()) for k, v in outs.items()}))
    else:
        for k, v in outs.items():
            click.echo(f"Result for output key {k}:")
            click.echo(str(v.numpy()))
    return 0


def _jsonable(v):
    import numpy as np

    a = np.asarray(v)
    if a.dtype.kind == "O":
        return [x.decode("utf-8", "replace") if isinstance(x, bytes) else str(x) for x in a.ravel().tolist()]
    if a.dtype.kind == "S":
        return a.astype(str).tolist()
    return a.tolist()


@click.group("saved-model")
def saved_model_group():
    """Inspect and run a SavedModel written by tf.saved_model.save."""


@saved_model_group.command("show")
@click.argument("directory", metavar="DIR")
@click.option("--signature", "signature", metavar="NAME", help="Show only this signature.")
def show_cmd(directory, signature):
    """Show DIR's signatures (inputs and outputs with dtypes and shapes), its
    functions' concrete signatures and its Variables (like saved_model_cli show --all)."""
    try:
        _show(directory, signature)
    except _Bad as e:
        sys.stderr.write(f"{e}\n")
        raise click.exceptions.Exit(2) from None


@saved_model_group.command("run")
@click.argument("directory", metavar="DIR")
@click.option("--signature", "signature", metavar="NAME",
              help="The signature to run (default: the only one, e.g. serving_default).")
@click.option("--input", "inputs", multiple=True, metavar="NAME=VALUE",
              help="One input: a JSON literal (3, [1.5, 2], [[1,2],[3,4]]) or a path to a .npy file (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the outputs as one JSON object.")
def run_cmd(directory, signature, inputs, as_json):
    """Run one signature of DIR on the given inputs and print its outputs."""
    try:
        code = _run(directory, signature, inputs, as_json)
    except _Bad as e:
        sys.stderr.write(f"{e}\n")
        raise click.exceptions.Exit(2) from None
    raise click.exceptions.Exit(code)


def _graph(directory, signature, function, option, dot, color):
    from autograph_cli._cli.graph import _dot, _render

    m = _load(directory)
    if (signature is None) == (function is None):
        raise _Bad(f"{directory}: give one of --signature NAME or --function PATH")
    if signature is not None:
        sigs = getattr(m, "signatures", {})
        if signature not in sigs:
            raise _Bad(f"{directory}: no signature {signature!r}; the SavedModel has: {', '.join(sorted(sigs)) or '(none)'}")
        cf, title = sigs[signature].concrete_function, signature
    else:
        funcs = dict(_collect(m))
        f = funcs.get(function)
        if f is None:
            raise _Bad(f"{directory}: no function {function!r}; the SavedModel has: {', '.join(sorted(funcs)) or '(none)'}")
        if not 1 <= option <= len(f.concrete_functions):
            raise _Bad(f"{directory}: function {function!r} has {len(f.concrete_functions)} concrete function(s); "
                       f"--option {option} is out of range")
        cf, title = f.concrete_functions[option - 1], function
    if dot:
        from autograph_cli._cli.files import SourceError, atomic_write

        try:
            atomic_write(dot, _dot(cf, title).encode())
        except SourceError as e:
            raise _Bad(str(e)) from None
    sys.stdout.write(_render(cf, title, color))
    sys.stdout.flush()
    return 0


def _collect(m):
    out = []
    _functions(m, "", out, set())
    return out


@saved_model_group.command("graph")
@click.argument("directory", metavar="DIR")
@click.option("--signature", "signature", metavar="NAME", help="Draw this signature's graph.")
@click.option("--function", "function", metavar="PATH", help="Draw this function's graph (a path as `show` lists it).")
@click.option("--option", "option", type=int, default=1, show_default=True,
              help="Which of the function's concrete functions (as numbered by `show`).")
@click.option("--dot", "dot", metavar="FILE", help="Also write the graph as Graphviz dot.")
def graph_cmd(directory, signature, function, option, dot):
    """Show a loaded function's graph as a tree (nodes, ops, the regions of
    conds and loops), optionally as Graphviz dot, like `autograph graph`."""
    try:
        code = _graph(directory, signature, function, option, dot, False)
    except _Bad as e:
        sys.stderr.write(f"{e}\n")
        raise click.exceptions.Exit(2) from None
    raise click.exceptions.Exit(code)

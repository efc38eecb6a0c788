"""The public API does not drift by accident.

``autograph_cli.__all__`` is pinned here; the TensorFlow facade's names (every
``tf.X``, ``tf.math.X``, ``tf.keras.layers.X`` ...) are pinned against
tests/data/tf_public_names.txt. A deliberate change updates that list:

    python tests/test_public_api.py --write
"""
from __future__ import annotations

import importlib
import inspect
import os
import subprocess
import sys
import types

import pytest

NAMES_FILE = os.path.join(os.path.dirname(__file__), "data", "tf_public_names.txt")

AUTOGRAPH_CLI_ALL = ["__version__", "do_not_convert", "install_import_hook", "to_code", "to_graph"]

# The modules a user imports (private modules, named with a leading
# underscore, are free to change). Each declares what it exports.
PUBLIC_MODULES = [
    "autograph_cli",
    "autograph_cli.api",
    "autograph_cli.cli",
    "autograph_cli.import_hook",
    "autograph_cli.operators",
    "autograph_cli.tf",
    "autograph_cli.tf.keras",
    "autograph_cli.tf.keras.activations",
    "autograph_cli.tf.keras.callbacks",
    "autograph_cli.tf.keras.initializers",
    "autograph_cli.tf.keras.layers",
    "autograph_cli.tf.keras.losses",
    "autograph_cli.tf.keras.metrics",
    "autograph_cli.tf.keras.models",
    "autograph_cli.tf.keras.optimizers",
    "autograph_cli.tf.keras.regularizers",
    "autograph_cli.tf.keras.backend",
    "autograph_cli.tf.keras.preprocessing",
    "autograph_cli.tf.keras.utils",
    "autograph_cli.saved_model",
    "autograph_cli.saved_model.format",
    "autograph_cli.saved_model.load",
    "autograph_cli.saved_model.save",
]


def tf_names() -> dict[str, object]:
    """{"tf.add": <function>, "tf.math.add": ..., "tf.keras.layers.Dense": ...}:
    every public name of the facade, following its namespaces' ``__all__``."""
    import autograph_cli.tf as tf

    found: dict[str, object] = {}

    def walk(module: types.ModuleType, prefix: str) -> None:
        for name in module.__all__:
            value = getattr(module, name)
            dotted = f"{prefix}.{name}"
            found[dotted] = value
            if isinstance(value, types.ModuleType) and value.__name__ == f"autograph_cli.{dotted}":
                walk(value, dotted)

    walk(tf, "tf")
    return found


def _write_names() -> None:
    with open(NAMES_FILE, "w", encoding="utf-8") as f:
        f.write("".join(name + "\n" for name in sorted(tf_names())))


def test_autograph_cli_all_is_pinned():
    import autograph_cli

    assert sorted(autograph_cli.__all__) == sorted(AUTOGRAPH_CLI_ALL)
    for name in autograph_cli.__all__:
        assert getattr(autograph_cli, name) is not None


def test_tf_names_are_pinned():
    with open(NAMES_FILE, encoding="utf-8") as f:
        pinned = {line.strip() for line in f if line.strip()}
    names = set(tf_names())
    added, removed = sorted(names - pinned), sorted(pinned - names)
    assert not added and not removed, (
        f"the tf facade's public names changed: added {added}, removed {removed}; if that is meant, "
        f"run `python tests/test_public_api.py --write` and commit {os.path.relpath(NAMES_FILE)}")


def test_every_public_tf_name_has_a_one_line_docstring():
    undocumented = []
    for dotted, value in tf_names().items():
        if not (inspect.isfunction(value) or inspect.isclass(value) or isinstance(value, types.ModuleType)):
            continue  # a value: a dtype, tf.newaxis, a constant
        doc = value.__doc__  # (a class's own: Python does not inherit docstrings)
        if not doc or not doc.strip().splitlines()[0].strip():
            undocumented.append(dotted)
    assert not undocumented, f"public tf names without a docstring: {undocumented}"


def test_tf_all_lists_every_public_global_and_nothing_else():
    import autograph_cli.tf as tf

    public = {n for n, v in vars(tf).items() if not n.startswith("_")
              and not (isinstance(v, types.ModuleType) and not v.__name__.startswith("autograph_cli.tf"))
              and n not in ("annotations", "Any", "Callable")}
    assert public - {"keras"} <= set(tf.__all__)
    missing = [n for n in tf.__all__ if not hasattr(tf, n)]
    assert not missing
    assert len(tf.__all__) == len(set(tf.__all__))


KERAS_NAMESPACES = ["activations", "callbacks", "initializers", "layers", "losses", "metrics", "models",
                    "optimizers", "regularizers", "backend", "preprocessing", "utils"]


@pytest.mark.parametrize("namespace", ["", *KERAS_NAMESPACES])
def test_keras_namespaces_expose_keras_names_only(namespace):
    """dir(tf.keras.layers) lists what Keras has there, not the modules and
    helpers the implementation imports (`tf.keras.layers.ops` must not exist)."""
    import autograph_cli.tf as tf

    mod = getattr(tf.keras, namespace) if namespace else tf.keras
    extra = sorted(n for n in dir(mod) if not n.startswith("_") and n not in mod.__all__)
    assert not extra, f"tf.keras{'.' + namespace if namespace else ''} exposes non-Keras names: {extra}"
    for leaked in ("ops", "np", "dt", "annotations", "Tensor", "ctx", "Any", "sys"):
        assert not hasattr(mod, leaked)
    with pytest.raises(ImportError):
        exec(f"from autograph_cli.tf.keras{'.' + namespace if namespace else ''} import ops", {})


def test_tf_losses_metrics_optimizers_initializers_are_the_keras_namespaces():
    import autograph_cli.tf as tf

    for name in ("losses", "metrics", "optimizers", "initializers"):
        assert getattr(tf, name) is getattr(tf.keras, name)
    assert tf.metrics.BinaryAccuracy is tf.keras.metrics.BinaryAccuracy


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_public_modules_declare_all(module):
    mod = importlib.import_module(module)
    assert isinstance(getattr(mod, "__all__", None), (list, tuple)), f"{module} has no __all__"
    missing = [n for n in mod.__all__ if not hasattr(mod, n)]
    assert not missing, f"{module}.__all__ names what it does not define: {missing}"


def test_namespaces_import_as_modules_and_star_import_gives_all():
    code = (
        "import autograph_cli.tf.math as m, autograph_cli.tf.nn\n"
        "from autograph_cli.tf import linalg\n"
        "from autograph_cli.tf.autograph import experimental\n"
        "ns = {}\n"
        "exec('from autograph_cli.tf import *', ns)\n"
        "import autograph_cli.tf as tf\n"
        "assert m.add is tf.add and linalg.matmul is tf.matmul and experimental.do_not_convert\n"
        "assert set(tf.__all__) <= set(ns), set(tf.__all__) - set(ns)\n"
        "print(float(ns['reduce_sum'](ns['constant']([1.0, 2.0]))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "3.0"


def test_package_is_typed():
    import configparser

    import autograph_cli

    assert os.path.isfile(os.path.join(os.path.dirname(autograph_cli.__file__), "py.typed"))
    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "setup.cfg"))
    assert "py.typed" in cfg.get("options.package_data", "autograph_cli", fallback="")


def _unannotated(fn) -> list[str]:
    sig = inspect.signature(fn)
    missing = [p for p, param in sig.parameters.items() if param.annotation is inspect.Parameter.empty
               and param.kind not in (param.VAR_POSITIONAL, param.VAR_KEYWORD)]
    if sig.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def test_public_functions_are_annotated():
    """The typed surface: the front door's functions, and those the tf
    facade defines itself, say what they take and return."""
    import autograph_cli.api as api

    functions = {f"api.{n}": getattr(api, n) for n in api.__all__}
    functions.update(tf_names())
    missing = {}
    for name, fn in functions.items():
        if inspect.isfunction(fn) and fn.__module__ in ("autograph_cli.api", "autograph_cli.tf"):
            if _unannotated(fn):
                missing[name] = _unannotated(fn)
    assert not missing, f"functions without types: {missing}"


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        _write_names()
        print(f"wrote {NAMES_FILE}")
    else:
        sys.exit(f"usage: python {sys.argv[0]} --write")

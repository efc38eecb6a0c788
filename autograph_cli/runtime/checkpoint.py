"""tf.train.Checkpoint, tf.train.CheckpointManager and tf.train.latest_checkpoint.

A checkpoint saves the variables reachable from its root object: its keyword
arguments, and through them the attributes of tf.Modules (Keras layers and
models are Modules), Keras optimizers and metrics (classes marking themselves
``_tf_trackable``), lists, tuples and dicts. Each variable is keyed by its
path of attribute names from the root, as TensorFlow's object-based
checkpoints are, so a checkpoint written by one program restores into the same
structure built by another. A dict keyed by variables' ids (an optimizer's
slots) is keyed by the paths of those variables instead.

Files: ``PREFIX.index`` (JSON: the keys, dtypes and shapes) and
``PREFIX.data-00000-of-00001`` (a numpy .npz archive), plus the directory's
``checkpoint`` state file naming the latest checkpoints, as TensorFlow's.
Values for variables that do not exist yet when ``restore`` runs are kept
and assigned when they appear: Keras layers call ``restore_deferred`` once built,
optimizers once their slots exist (TensorFlow's deferred restoration). A plain
tf.Module creating variables lazily gets them after its next ``restore``.
"""
from __future__ import annotations

import json
import os

import numpy as np

from . import dtypes as dt
from .shapes import TensorShape
from .variables import Module, Variable, init_scope

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointReader", "latest_checkpoint", "list_variables",
           "load_checkpoint", "restore_deferred"]

_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
_DATA = ".data-00000-of-00001"
_STATE = "checkpoint"
_OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"


def _trackable(obj):
    return (isinstance(obj, (Module, Checkpoint)) or getattr(type(obj), "_tf_trackable", False)
            or _saveable_kind(obj) is not None)


def _saveable_kind(obj):
    """The ATTRIBUTES name a non-variable saveable (a dataset iterator: ITERATOR_STATE) is saved under."""
    return getattr(type(obj), "_tf_saveable_state", None)


class _SavedPosition:
    """A saveable's state in a checkpoint (an iterator's position: int64 elements consumed),
    read and assigned as a variable's value is."""

    dtype = dt.int64

    def __init__(self, obj):
        self._obj = obj
        self.shape = TensorShape([])

    def numpy(self):
        return np.int64(self._obj._checkpoint_position())

    def assign(self, value):
        self._obj._restore_position(int(value))


def _object_graph(root):
    """{key: Variable} for every variable reachable from ``root``."""
    found: dict = {}
    var_path: dict = {}
    seen: set = set()
    by_id: list = []

    def visit(obj, path):
        if isinstance(obj, Variable):
            if id(obj) not in var_path:
                var_path[id(obj)] = path
                found[path + _SUFFIX] = obj
            return
        if _saveable_kind(obj) is not None:
            if id(obj) not in seen:
                seen.add(id(obj))
                found[f"{path}/.ATTRIBUTES/{_saveable_kind(obj)}"] = _SavedPosition(obj)
            return
        if isinstance(obj, (list, tuple)):
            for i, x in enumerate(obj):
                visit(x, f"{path}/{i}")
        elif isinstance(obj, dict):
            keys = list(obj)
            if keys and all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
                by_id.append((path, obj))
                return
            for k in sorted((k for k in keys if isinstance(k, str))):
                visit(obj[k], f"{path}/{k}")
        elif _trackable(obj) and id(obj) not in seen:
            seen.add(id(obj))
            attrs = obj._checkpoint_children() if isinstance(obj, Checkpoint) else vars(obj)
            for name in sorted(attrs):
                visit(attrs[name], f"{path}/{name}" if path else name)

    visit(root, "")
    while by_id:  # dicts keyed by id(variable): keyed by that variable's path
        path, mapping = by_id.pop(0)
        for k in sorted((k for k in mapping if k in var_path), key=lambda k: var_path[k]):
            visit(mapping[k], f"{path}/{var_path[k]}")
    return found


def _write(prefix, variables):
    prefix = os.fspath(prefix)
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    arrays = {}
    index = {"format": "autograph_cli-checkpoint-1", "variables": {}}
    entries = sorted(variables.items())
    # as TensorFlow's, the checkpoint describes its objects under _CHECKPOINTABLE_OBJECT_GRAPH (a string
    # scalar; here the JSON list of the saved keys)
    entries.append((_OBJECT_GRAPH, None))
    for i, (key, v) in enumerate(entries):
        value = np.asarray(v.numpy()) if v is not None else np.array(json.dumps([k for k, _ in entries[:-1]]))
        arrays[f"v{i}"] = value
        index["variables"][key] = {"array": f"v{i}", "dtype": v.dtype.name if v is not None else "string",
                                   "shape": list(value.shape)}
    with open(prefix + _DATA, "wb") as f:
        np.savez(f, **arrays)
    with open(prefix + ".index", "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1, sort_keys=True)
    return prefix


def _read(prefix):
    prefix = os.fspath(prefix)
    try:
        with open(prefix + ".index", encoding="utf-8") as f:
            index = json.load(f)
    except FileNotFoundError:
        from .errors import NotFoundError

        raise NotFoundError(None, None, f"Failed to find any matching files for {prefix}") from None
    with np.load(prefix + _DATA, allow_pickle=False) as data:
        return {key: data[meta["array"]] for key, meta in index["variables"].items() if key != _OBJECT_GRAPH}


# (checkpoint, {key: saved value not yet assigned}) of each restore with values left over;
# the checkpoint is held (a temporary `tf.train.Checkpoint(model=m).restore(path)` still restores)
_DEFERRED: list = []


def restore_deferred():
    """Assigns the saved values of earlier restores to the variables that now exist
    (called by Keras layers when built and by optimizers when their slots are made)."""
    if not _DEFERRED:
        return
    for entry in list(_DEFERRED):
        ckpt, values = entry
        current = _object_graph(ckpt)
        for key in [k for k in values if k in current]:
            with init_scope():
                _assign(current[key], key, values.pop(key))
        if not values:
            _DEFERRED.remove(entry)


def _assign(var, key, value):
    if var.shape.is_fully_defined() and tuple(var.shape.as_list()) != value.shape:
        raise ValueError(f"Received incompatible tensor with shape {value.shape} when attempting to "
                         f"restore variable with shape {var.shape} and name {key}.")
    var.assign(value.astype(var.dtype.np) if var.dtype is not dt.string else value)


class _LoadStatus:
    """What ``restore``/``read`` matched: the assertions of TensorFlow's load status
    (``pending``: the saved values still waiting for their variables)."""

    def __init__(self, pending, unmatched_objects):
        self._pending = pending
        self._unmatched = sorted(unmatched_objects)

    def assert_consumed(self):
        if self._pending or self._unmatched:
            raise AssertionError(
                "Unresolved object in checkpoint or unrestored variables: "
                f"saved but not restored {sorted(self._pending)[:5]}, not in the checkpoint {self._unmatched[:5]}")
        return self

    def assert_existing_objects_matched(self):
        if self._unmatched:
            raise AssertionError(f"Some objects had no value in the checkpoint: {self._unmatched[:5]}")
        return self

    def assert_nontrivial_match(self):
        return self

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


class Checkpoint:
    """tf.train.Checkpoint(**objects): saves and restores the variables the
    objects hold (see the module docstring)."""

    _tf_trackable = True

    def __init__(self, root=None, **kwargs):
        children = dict(kwargs)
        if root is not None:
            children["root"] = root
        for name, value in children.items():
            if not (isinstance(value, Variable) or _trackable(value)):
                raise ValueError(f"`Checkpoint` was expecting a trackable object (an object derived from "
                                 f"`Trackable`), got {value!r}. If you believe this object should be trackable "
                                 f"(i.e. it is part of the TensorFlow Python API and manages state), please open "
                                 f"an issue.")
        self.__dict__["_children"] = children
        self.__dict__["_save_counter"] = None

    def _checkpoint_children(self):
        children = dict(self._children)
        if self._save_counter is not None:
            children["save_counter"] = self._save_counter
        return children

    def __getattr__(self, name):
        children = self.__dict__.get("_children", {})
        if name in children:
            return children[name]
        raise AttributeError(f"'Checkpoint' object has no attribute {name!r}")

    def __setattr__(self, name, value):
        if name.startswith("_"):
            self.__dict__[name] = value
        else:
            self._children[name] = value

    @property
    def save_counter(self):
        if self._save_counter is None:
            from .variables import init_scope

            with init_scope():
                self.__dict__["_save_counter"] = Variable(0, dtype=dt.int64, trainable=False, name="save_counter")
        return self._save_counter

    def write(self, file_prefix, options=None):
        """Writes the variables to ``file_prefix`` (no counter, no state file); returns the prefix."""
        return _write(file_prefix, _object_graph(self))

    def save(self, file_prefix, options=None):
        """Writes ``file_prefix-N`` (N: the save counter, incremented) and records it
        in the directory's state file; returns that path."""
        counter = self.save_counter
        counter.assign_add(1)
        path = _write(f"{os.fspath(file_prefix)}-{int(counter.numpy())}", _object_graph(self))
        _update_state(os.path.dirname(path), path, None)
        return path

    def read(self, save_path, options=None):
        """Assigns the saved values to the variables the objects hold now."""
        saved = _read(save_path)
        if "save_counter" + _SUFFIX in saved:
            self.save_counter  # noqa: B018 - created so that it is restored too
        current = _object_graph(self)
        for key, var in current.items():
            if key in saved:
                _assign(var, key, saved[key])
        pending = {k: v for k, v in saved.items() if k not in current}
        for entry in list(_DEFERRED):  # a newer restore of this checkpoint replaces an older one's
            if entry[0] is self:
                _DEFERRED.remove(entry)
        if pending:
            _DEFERRED.append((self, pending))
        return _LoadStatus(pending, set(current) - set(saved) - {"save_counter" + _SUFFIX})

    def restore(self, save_path, options=None):
        """As ``read`` (``None``, as from a directory with no checkpoint, restores nothing)."""
        if save_path is None:
            return _LoadStatus({}, ())
        return self.read(save_path, options)


def _state_path(directory):
    return os.path.join(directory or ".", _STATE)


def _read_state(directory):
    try:
        with open(_state_path(directory), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return None, []
    latest, paths = None, []
    for line in lines:
        key, _, value = line.partition(":")
        value = json.loads(value.strip()) if value.strip() else ""
        if key.strip() == "model_checkpoint_path":
            latest = value
        elif key.strip() == "all_model_checkpoint_paths":
            paths.append(value)
    resolve = (lambda p: p if os.path.isabs(p) else os.path.join(directory, p))
    return (resolve(latest) if latest else None), [resolve(p) for p in paths]


def _update_state(directory, latest, all_paths):
    if all_paths is None:
        _, all_paths = _read_state(directory)
        all_paths = [p for p in all_paths if p != latest] + [latest]
    rel = (lambda p: os.path.relpath(p, directory or "."))
    text = f"model_checkpoint_path: {json.dumps(rel(latest))}\n" + "".join(
        f"all_model_checkpoint_paths: {json.dumps(rel(p))}\n" for p in all_paths)
    with open(_state_path(directory), "w", encoding="utf-8") as f:
        f.write(text)


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """tf.train.latest_checkpoint: the newest checkpoint's prefix recorded in the
    directory, or None."""
    latest, _ = _read_state(os.fspath(checkpoint_dir))
    if latest and os.path.exists(latest + ".index"):
        return latest
    return None


class CheckpointManager:
    """tf.train.CheckpointManager: numbered saves in a directory, keeping the newest
    ``max_to_keep`` (None: all)."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None, init_fn=None):
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._name = checkpoint_name
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._last_saved_step = None
        self._init_fn = init_fn
        os.makedirs(self._directory, exist_ok=True)
        _, paths = _read_state(self._directory)
        self._paths = [p for p in paths if os.path.exists(p + ".index")]

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def latest_checkpoint(self):
        return self._paths[-1] if self._paths else None

    @property
    def checkpoints(self):
        return list(self._paths)

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Writes a numbered checkpoint and returns its path; with a checkpoint_interval, returns None
        instead while fewer than that many steps (step_counter) passed since the last save."""
        if self._checkpoint_interval is not None:
            step = int(self._step_counter.numpy() if hasattr(self._step_counter, "numpy") else self._step_counter)
            if check_interval and self._last_saved_step is not None and \
                    step < self._last_saved_step + self._checkpoint_interval:
                return None
            if checkpoint_number is None:
                checkpoint_number = step
            self._last_saved_step = step
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        number = int(counter.numpy()) if checkpoint_number is None else int(
            checkpoint_number.numpy() if hasattr(checkpoint_number, "numpy") else checkpoint_number)
        path = _write(os.path.join(self._directory, f"{self._name}-{number}"), _object_graph(self._checkpoint))
        self._paths = [p for p in self._paths if p != path] + [path]
        if self._max_to_keep is not None:
            while len(self._paths) > self._max_to_keep:
                old = self._paths.pop(0)
                for suffix in (".index", _DATA):
                    if os.path.exists(old + suffix):
                        os.remove(old + suffix)
        _update_state(self._directory, path, self._paths)
        return path

    def restore_or_initialize(self):
        """Restores the latest checkpoint and returns its path; without one, calls init_fn (if given)
        and returns None."""
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


def _checkpoint_prefix(ckpt_dir_or_file):
    """A directory's latest checkpoint, or the prefix itself (tf.train.load_checkpoint's argument)."""
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        return latest
    return path


class CheckpointReader:
    """tf.train.load_checkpoint's reader: the saved keys, their shapes and dtypes, and values."""

    def __init__(self, prefix):
        self._prefix = prefix
        try:
            with open(prefix + ".index", encoding="utf-8") as f:
                self._index = json.load(f)["variables"]
        except FileNotFoundError:
            from .errors import NotFoundError

            raise NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find any "
                                            f"matching files for {prefix}") from None

    def get_variable_to_shape_map(self):
        return {key: list(meta["shape"]) for key, meta in self._index.items()}

    def get_variable_to_dtype_map(self):
        return {key: dt.as_dtype(meta["dtype"]) for key, meta in self._index.items()}

    def has_tensor(self, name):
        return name in self._index

    def get_tensor(self, name):
        if name not in self._index:
            from .errors import NotFoundError

            raise NotFoundError(None, None, f"Key {name} not found in checkpoint")
        with np.load(self._prefix + _DATA, allow_pickle=False) as data:
            value = data[self._index[name]["array"]]
        if self._index[name]["dtype"] == "string":
            return value.astype(object) if value.shape else value.item().encode()
        return value


def load_checkpoint(ckpt_dir_or_file):
    """tf.train.load_checkpoint: a CheckpointReader of a checkpoint prefix or a directory's latest."""
    return CheckpointReader(_checkpoint_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """tf.train.list_variables: (key, shape) of every saved value, sorted by key."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(key, shapes[key]) for key in sorted(shapes)]

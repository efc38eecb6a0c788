"""The SavedModel directory format: data only (JSON + .npy), versioned,
every file's sha256 in the manifest.  See docs/saved_model.md.

    EXPORT_DIR/
      saved_model.json        manifest: format, version, {file: sha256}
      graph.json              variables, object graph, functions, signatures
      variables/<i>.npy       one array per Variable
      arrays/<i>.npy          array-valued constants and attributes
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import math
import os

import numpy as np

FORMAT = "autograph_cli.saved_model"
VERSION = 1
MANIFEST = "saved_model.json"
GRAPH = "graph.json"

__all__ = ["SavedModelError", "FORMAT", "VERSION", "MANIFEST", "GRAPH", "sha256", "read_manifest", "read_json",
           "read_array", "array_bytes"]


class SavedModelError(ValueError):
    """A SavedModel that cannot be written or read: one line naming the file
    (or the function and source line) and what is wrong."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def array_bytes(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.array(arr, order="C", copy=True), allow_pickle=False)
    return buf.getvalue()


def _read_checked(export_dir, rel, manifest):
    path = os.path.join(export_dir, rel)
    want = manifest["files"].get(rel)
    if want is None:
        raise SavedModelError(f"{path}: not listed in {MANIFEST}")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise SavedModelError(f"{path}: missing (listed in {MANIFEST})") from None
    except OSError as e:
        raise SavedModelError(f"{path}: cannot read: {e.strerror or e}") from None
    if sha256(data) != want:
        raise SavedModelError(f"{path}: contents do not match the sha256 in {MANIFEST} (truncated or modified)")
    return path, data


def read_manifest(export_dir):
    path = os.path.join(export_dir, MANIFEST)
    if not os.path.isdir(export_dir):
        raise SavedModelError(f"{export_dir}: not a SavedModel directory (no such directory)")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise SavedModelError(f"{path}: missing: {export_dir} is not a SavedModel directory") from None
    try:
        m = json.loads(data)
    except (ValueError, UnicodeDecodeError) as e:
        raise SavedModelError(f"{path}: not valid JSON ({e}): truncated or modified") from None
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        raise SavedModelError(f"{path}: not an autograph_cli SavedModel manifest (format field is {m.get('format') if isinstance(m, dict) else None!r})")
    v = m.get("version")
    if v != VERSION:
        raise SavedModelError(f"{path}: unsupported format version {v!r} (this autograph_cli reads version {VERSION})")
    files = m.get("files")
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(h, str) for k, h in files.items()):
        raise SavedModelError(f"{path}: 'files' must map file names to sha256 digests")
    for k in files:
        if os.path.isabs(k) or ".." in k.replace("\\", "/").split("/"):
            raise SavedModelError(f"{path}: file name {k!r} leaves the SavedModel directory")
    return m


def read_json(export_dir, rel, manifest):
    path, data = _read_checked(export_dir, rel, manifest)
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError) as e:
        raise SavedModelError(f"{path}: not valid JSON ({e})") from None


def read_array(export_dir, rel, manifest, np_dtype=None, shape=None, what="array"):
    """The .npy file `rel`, checked against the graph's dtype and shape."""
    path, data = _read_checked(export_dir, rel, manifest)
    try:
        arr = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError, EOFError) as e:
        raise SavedModelError(f"{path}: not a readable .npy array ({e})") from None
    if shape is not None and list(arr.shape) != list(shape):
        raise SavedModelError(
            f"{path}: {what} has shape {list(arr.shape)} but the graph says {list(shape)}")
    if np_dtype is not None and arr.dtype != np.dtype(np_dtype):
        raise SavedModelError(f"{path}: {what} has dtype {arr.dtype} but the graph says {np.dtype(np_dtype)}")
    return arr


# -- values: tagged JSON ------------------------------------------------------------


def encode_bytes(b: bytes) -> dict:
    return {"$bytes": base64.b64encode(b).decode("ascii")}


def decode_float(x):
    if isinstance(x, dict):
        return float(x["$float"])
    return float(x)


def encode_float(x: float):
    if math.isfinite(x):
        return x
    return {"$float": repr(x)}

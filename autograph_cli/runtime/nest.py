"""Nested structures (tuple, list, dict, namedtuple, composites) <-> flat lists."""
from __future__ import annotations

__all__ = ["flatten", "pack_sequence_as", "map_structure", "is_nested", "assert_same_structure"]


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def is_nested(x) -> bool:
    return isinstance(x, (list, tuple, dict)) or hasattr(x, "_tf_components")


def _children(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x, key=_sort_key)]
    if hasattr(x, "_tf_components"):
        return list(x._tf_components())
    return list(x)


def _sort_key(k):
    return (type(k).__name__, k) if not isinstance(k, (int, float, str)) else (0 if isinstance(k, (int, float)) else 1, k)


def flatten(x, expand_composites=True):
    out = []
    _flatten(x, out, expand_composites)
    return out


def _flatten(x, out, ec):
    if isinstance(x, (list, tuple, dict)) or (ec and hasattr(x, "_tf_components")):
        for c in _children(x):
            _flatten(c, out, ec)
    else:
        out.append(x)


def pack_sequence_as(structure, flat, expand_composites=True):
    it = iter(flat)
    res = _pack(structure, it, expand_composites)
    rest = list(it)
    if rest:
        raise ValueError(f"Structure had fewer leaves than flat sequence ({len(rest)} left over)")
    return res


def _pack(s, it, ec):
    if isinstance(s, dict):
        keys = sorted(s, key=_sort_key)
        vals = {k: _pack(s[k], it, ec) for k in keys}
        return type(s)((k, vals[k]) for k in s) if type(s) is not dict else {k: vals[k] for k in s}
    if _is_namedtuple(s):
        return type(s)(*[_pack(c, it, ec) for c in s])
    if isinstance(s, (list, tuple)):
        return type(s)(_pack(c, it, ec) for c in s)
    if ec and hasattr(s, "_tf_components"):
        comps = [_pack(c, it, ec) for c in s._tf_components()]
        return s._tf_from_components(comps)
    try:
        return next(it)
    except StopIteration:
        raise ValueError("Structure had more leaves than the flat sequence") from None


def map_structure(fn, *structures):
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [fn(*xs) for xs in zip(*flats)])


def structure_key(x):
    """A hashable description of the nesting (not of the leaves)."""
    if isinstance(x, dict):
        return ("dict", tuple((k, structure_key(x[k])) for k in sorted(x, key=_sort_key)))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(structure_key(c) for c in x))
    if hasattr(x, "_tf_components"):
        return (type(x).__name__, x._tf_static_key(), tuple(structure_key(c) for c in x._tf_components()))
    return "*"


def assert_same_structure(a, b):
    if structure_key(a) != structure_key(b):
        raise ValueError(f"The two structures don't have the same nested structure: {a!r} vs {b!r}")

"""Backend registry and the State handle a backend uses to read and write
the variables a staged construct carries."""
from __future__ import annotations

_registered: dict[type, object] = {}
# type -> backend, or False for "plain Python"; filled lazily from the MRO.
_by_type: dict[type, object] = {}


class _Undefined:
    """Marks a variable that is not bound yet."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __bool__(self) -> bool:
        raise TypeError("an undefined variable has no truth value")


UNDEFINED = _Undefined()


class _ReturnMarker:
    """The value of a converted function's return variable before any
    ``return`` ran (see UNDEFINED_RETURN and NO_RETURN)."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def __reduce__(self) -> str:
        return self._name


#: No ``return`` has run yet, and a flag (``do_return``) records whether one
#: did: a staged construct may give it a typed placeholder on the side where
#: no return ran, since the flag guards every later use.
UNDEFINED_RETURN = _ReturnMarker("UNDEFINED_RETURN")
#: No ``return`` has run, and none can run later on this path: the function
#: falls off its end (returns None) if this value is still there at the end.
NO_RETURN = _ReturnMarker("NO_RETURN")


def register_backend(types, backend) -> None:
    """Stage values of ``types`` (a type or a tuple of types) with ``backend``."""
    if isinstance(types, type):
        types = (types,)
    for t in types:
        _registered.pop(t, None)  # re-registered: last in order (builtin overloads, probes)
        _registered[t] = backend
    _changed()


def unregister_backend(backend) -> None:
    for t in [t for t, b in _registered.items() if b is backend]:
        del _registered[t]
    _changed()


def _changed() -> None:
    _by_type.clear()
    # the package imports this module first: its other parts are imported here
    from autograph_cli import operators
    from autograph_cli.operators import _calls

    _calls.reset_overloads()
    operators._set_probes(
        b.trace_active for b in registered_backends() if callable(getattr(b, "trace_active", None)))
    from autograph_cli.operators import _control_flow

    _control_flow._scratch_tests[:] = [
        b for b in registered_backends() if callable(getattr(b, "trace_mark", None))]


def registered_backends() -> list:
    seen = []
    for b in _registered.values():
        if b not in seen:
            seen.append(b)
    return seen


def _resolve(t: type):
    found: object = False
    for base in t.__mro__:
        b = _registered.get(base)
        if b is not None:
            found = b
            break
    _by_type[t] = found
    return found


def backend_for(value):
    """The backend that stages ``value``, or False for a plain Python value."""
    t = type(value)
    b = _by_type.get(t)
    if b is None:
        b = _resolve(t)
    return b


def _parse_composite(text: str):
    """``"a.b['k'][0]"`` -> ``("a", [(".", "b"), ("[]", "k"), ("[]", 0)])``
    (the converter writes attributes and constant subscripts only, and
    ``[...]`` for a whole object whose items are written by computed keys)."""
    import ast

    node = ast.parse(text, mode="eval").body
    path = []
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Attribute):
            path.append((".", node.attr))
            node = node.value
        elif isinstance(node, ast.Subscript):
            path.append(("[]", ast.literal_eval(node.slice)))
            node = node.value
        else:
            raise ValueError(f"not a composite name: {text!r}")
    path.reverse()
    return node.id, path


class _Composite:
    """Where a composite name lives: the base name's slot, then the path."""

    __slots__ = ("name", "slot", "path")

    def __init__(self, name, slot, path):
        self.name, self.slot, self.path = name, slot, path

    def _base(self):
        if isinstance(self.slot, dict):
            return self.slot.get(self.name, UNDEFINED)
        try:
            return self.slot.cell_contents
        except ValueError:
            return UNDEFINED

    def _parent(self):
        obj = self._base()
        for kind, key in self.path[:-1]:
            if obj is UNDEFINED:
                return UNDEFINED
            try:
                obj = getattr(obj, key) if kind == "." else obj[key]
            except (AttributeError, LookupError, TypeError):
                return UNDEFINED
        return obj

    def get(self):
        obj = self._parent()
        if obj is UNDEFINED:
            return UNDEFINED
        kind, key = self.path[-1]
        if key is Ellipsis:  # `d[...]`: the whole object (items written by a computed key)
            return obj
        try:
            return getattr(obj, key) if kind == "." else obj[key]
        except (AttributeError, LookupError, TypeError):
            return UNDEFINED

    def set(self, value):
        obj = self._parent()
        if obj is UNDEFINED:
            return
        kind, key = self.path[-1]
        if key is Ellipsis:  # the whole object: its new contents written back in place
            if value is obj or value is UNDEFINED:
                return
            if isinstance(obj, dict) and isinstance(value, dict):
                obj.clear()
                obj.update(value)
            elif isinstance(obj, list) and isinstance(value, list):
                obj[:] = value
            else:
                raise TypeError(f"cannot write a new value of '{self.name}' ({type(obj).__name__}) in place")
            return
        if value is UNDEFINED:
            try:
                delattr(obj, key) if kind == "." else obj.__delitem__(key)
            except (AttributeError, LookupError, TypeError):
                pass
            return
        try:
            if kind == ".":
                setattr(obj, key, value)
            else:
                obj[key] = value
        except (AttributeError, TypeError) as e:  # a frozen dataclass, a property without a setter ...
            text = self.name + "".join(f".{k}" if kd == "." else f"[{k!r}]" for kd, k in self.path)
            try:
                error = type(e)(
                    f"'{text}' cannot be written: a staged construct carries it (it assigns it, or appends to or "
                    f"pops from the list it holds, which then becomes a TensorArray) and writes its new value "
                    f"back, but {type(obj).__name__} refuses it: {e}")
            except Exception:
                raise e from None
            raise error from None


class State:
    """The variables a staged construct carries, read from and written to the
    closure cells of the construct's functions (or their globals)."""

    __slots__ = ("names", "functions", "_slots")

    def __init__(self, names, functions):
        self.names = tuple(names)
        self.functions = tuple(f for f in functions if f is not None)
        self._slots = None

    def _lookup(self):
        if self._slots is None:
            slots = []
            for name in self.names:
                path = None
                if "." in name or "[" in name:  # a composite name: a.b, a['k'], a[0]
                    name, path = _parse_composite(name)
                slot = None
                for fn in self.functions:
                    code = fn.__code__
                    if name in code.co_freevars:
                        slot = fn.__closure__[code.co_freevars.index(name)]
                        break
                if slot is None:
                    slot = self.functions[0].__globals__ if self.functions else {}
                slots.append(slot if path is None else _Composite(name, slot, path))
            self._slots = slots
        return self._slots

    def get(self) -> tuple:
        values = []
        for name, slot in zip(self.names, self._lookup()):
            if type(slot) is _Composite:
                values.append(slot.get())
            elif isinstance(slot, dict):
                values.append(slot.get(name, UNDEFINED))
            else:
                try:
                    values.append(slot.cell_contents)
                except ValueError:
                    values.append(UNDEFINED)
        return tuple(values)

    def set(self, values) -> None:
        values = tuple(values)
        if len(values) != len(self.names):
            raise ValueError(f"expected {len(self.names)} values for {self.names}, got {len(values)}")
        for name, slot, value in zip(self.names, self._lookup(), values):
            if type(slot) is _Composite:
                slot.set(value)
            elif isinstance(slot, dict):
                if value is UNDEFINED:
                    slot.pop(name, None)
                else:
                    slot[name] = value
            elif value is UNDEFINED:
                try:
                    del slot.cell_contents
                except ValueError:
                    pass
            else:
                slot.cell_contents = value

    @property
    def location(self) -> tuple[str, int]:
        """(filename, line) of the user's statement this construct came from."""
        for fn in self.functions:
            code = getattr(fn, "__code__", None)
            if code is not None:
                return code.co_filename, code.co_firstlineno
        return "<unknown>", 0

    def __repr__(self) -> str:
        return f"State({self.names!r})"


class Snapshot:
    """The closure cells of a construct's functions that its state does not
    carry (names assigned inside but dead after it), as they were when taken:
    a backend restores them before tracing each branch or body, so no trace
    sees what another one assigned."""

    __slots__ = ("cells",)

    def __init__(self, state):
        cells = {}
        carried = set(state.names)
        for fn in state.functions:
            code = getattr(fn, "__code__", None)
            closure = getattr(fn, "__closure__", None)
            if code is None or not closure:
                continue
            for name, cell in zip(code.co_freevars, closure):
                if name in carried or id(cell) in cells:
                    continue
                try:
                    cells[id(cell)] = (cell, cell.cell_contents)
                except ValueError:
                    cells[id(cell)] = (cell, UNDEFINED)
        self.cells = list(cells.values())

    def restore(self):
        for cell, value in self.cells:
            if value is UNDEFINED:
                try:
                    del cell.cell_contents
                except ValueError:
                    pass
            else:
                try:
                    if cell.cell_contents is value:
                        continue
                except ValueError:
                    pass
                cell.cell_contents = value

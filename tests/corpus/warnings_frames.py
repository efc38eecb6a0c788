"""Warnings are observable: category, message, and the file and line they are
attributed to (stacklevel counts frames, which generated code must not add)."""
import sys
import warnings

LOG = []


def warns_in_loop(values):
    out = []
    for v in values:
        if v == 0:
            warnings.warn(f"zero at {len(out)}", UserWarning)
        out.append(v)
    return out


def deprecated_helper(x):
    if x < 0:
        warnings.warn("negative input", DeprecationWarning, stacklevel=2)
    return abs(x)


def calls_deprecated(values):
    total = 0
    for v in values:
        total += deprecated_helper(v)
    return total


def warn_to_caller_from_branch(x):
    if x:
        warnings.warn("from a branch", UserWarning, stacklevel=2)
    return x


def warn_to_caller_unconditionally(x):
    # No control flow around the warning: the warn call is in the function's
    # own frame, converted or not.
    y = x if x else -1
    warnings.warn("plain", UserWarning, stacklevel=2)
    return y


def caller_name_in_loop(n):
    names = []
    for _ in range(n):
        if n > 1:
            names.append(sys._getframe(0).f_code.co_name)
    return names


CASES = {
    "warns_in_loop": [([1, 0, 2, 0],), ([],)],
    "deprecated_helper": [(-1,), (2,)],
    "calls_deprecated": [([1, -2, 3],)],
    "warn_to_caller_from_branch": [(0,), (1,)],
    "warn_to_caller_unconditionally": [(0,), (5,)],
    "caller_name_in_loop": [(0,), (3,)],
}

HYPOTHESIS = {
    "warns_in_loop": ("ints",),
}

TRACEBACK = {}

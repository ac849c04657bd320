"""Integers on their way into C, range-checked first.

ctypes converts a Python int to a C integer type by truncation, without a
word: 2**32 + 1 becomes 1 as a c_int, 2**64 becomes 0 as a size_t.  Every
integer option that the package passes to libntt goes through one of these
checks, so that out-of-range values are an InvalidArgumentError (a
ValueError) naming the option, never a silently different value.
"""

import ctypes
import operator

from ._errors import InvalidArgumentError, Status

C_INT_MAX = (1 << (8 * ctypes.sizeof(ctypes.c_int) - 1)) - 1
SIZE_MAX = (1 << (8 * ctypes.sizeof(ctypes.c_size_t))) - 1


def index(x, name):
    """x as a Python int (anything with __index__), or InvalidArgumentError."""
    try:
        return operator.index(x)
    except TypeError:
        raise InvalidArgumentError(Status.EINVAL, f"{name}: expected an integer, got "
                                   f"{type(x).__name__}") from None


def in_range(x, name, hi, lo=0):
    """index(x) checked to lie in [lo, hi]."""
    v = index(x, name)
    if not lo <= v <= hi:
        raise InvalidArgumentError(Status.EINVAL, f"{name} = {v}: expected an integer in "
                                   f"[{lo}, {hi}]")
    return v


def threads(x):
    """A thread count (a C int): 0 .. INT_MAX, 0 meaning the default."""
    return in_range(x, "threads", C_INT_MAX)


def size(x, name):
    """A size_t value: 0 .. SIZE_MAX."""
    return in_range(x, name, SIZE_MAX)

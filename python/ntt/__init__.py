"""ntt: number-theoretic transforms and exact polynomial products over
libntt, numpy arrays in and out, on the CPU or on CUDA device arrays.

    import ntt
    c = ntt.polymul_mod(a, b, p)                  # any p >= 2 (ints past 2^63)
    z = ntt.int_mul(x, y)                         # Python ints of any size
    with ntt.Plan(4096, [q0, q1, q2], negacyclic=True) as plan:
        spec = plan.forward(limbs)                # shape (3, 4096), uint64

ntt.rns (import ntt.rns) binds the RNS base conversions and CKKS
key-switching stages of include/ntt_rns.h: ntt.rns.Context(n, q, p, dnum).
ntt.Field (ntt.field) binds the big prime fields of include/ntt_field.h:
ntt.Field(p or preset name).plan(n).

The C library is found through NTT_LIBRARY, a copy inside this package, or
the system loader, in that order; ntt.library_path() names the one loaded.
Every C call releases the GIL.  Errors are ntt.Error subclasses carrying
the library's status (see ntt.Status).
"""

from . import _lib
from ._errors import (BackendError, DTypeError, Error, InvalidArgumentError, ModulusError,
                      OutOfMemoryError, RangeError, Status, UnsupportedError, status_string)
from ._names import auto_backend, backend_available, backends, cuda_info
from ._numtheory import find_prime, is_prime, primitive_root, root_of_unity
from ._plan import Plan
from ._polymul import cache_clear, int_mul, polymul_mod
from ._version import __version__

try:  # ntt.Field: a libntt without the field module still loads the rest
    from .field import Field, FieldPlan
except ImportError:
    pass

__library__ = _lib.path


def library_path():
    """The path of the libntt the package loaded."""
    return _lib.path


def library_origin():
    """Where that library was found: "NTT_LIBRARY" (the environment
    variable), "package" (the package's own copy) or "system" (the loader's
    search path)."""
    return _lib.origin


__all__ = [
    "BackendError", "DTypeError", "Error", "InvalidArgumentError", "ModulusError",
    "OutOfMemoryError", "Plan", "RangeError", "Status", "UnsupportedError", "auto_backend",
    "backend_available", "backends", "cache_clear", "cuda_info", "find_prime", "int_mul",
    "is_prime",
    "library_origin", "library_path", "polymul_mod", "primitive_root", "root_of_unity",
    "status_string",
]

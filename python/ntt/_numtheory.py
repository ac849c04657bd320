"""Number theory: primality, NTT primes, primitive roots, roots of unity."""

import ctypes
import operator

from . import _lib
from ._errors import InvalidArgumentError, ModulusError, Status, check

_U64 = 1 << 64


def _u64(x, name, exc=InvalidArgumentError, status=Status.EINVAL):
    try:
        v = operator.index(x)
    except TypeError:
        raise InvalidArgumentError(Status.EINVAL, f"{name}: expected an integer, got "
                                   f"{type(x).__name__}") from None
    if not 0 <= v < _U64:
        raise exc(status, f"{name} = {v}: expected an integer in [0, 2^64)")
    return v


def is_prime(n):
    """True if n is prime; deterministic for every n in [0, 2^64)."""
    return bool(_lib.is_prime(_u64(n, "n")))


def primitive_root(p):
    """The smallest primitive root modulo the prime p.
    Raises ModulusError if p is not prime."""
    p = _u64(p, "p", ModulusError, Status.EMODULUS)
    g = ctypes.c_uint64()
    check(_lib.primitive_root(p, ctypes.byref(g)), f"ntt_primitive_root({p})")
    return g.value


def root_of_unity(p, order):
    """An element of multiplicative order exactly `order` modulo the prime p:
    g^((p-1)/order) for the smallest primitive root g.  Raises ModulusError
    if p is not prime or order does not divide p-1."""
    p = _u64(p, "p", ModulusError, Status.EMODULUS)
    order = _u64(order, "order")
    w = ctypes.c_uint64()
    check(_lib.root_of_unity(p, order, ctypes.byref(w)), f"ntt_root_of_unity({p}, {order})")
    return w.value


def find_prime(bits, log2_order, index=0):
    """The index-th largest prime p < 2^bits with 2^log2_order | p-1 (index 0
    is the largest); 2 <= bits <= 63, log2_order < bits.  Raises
    InvalidArgumentError for bad arguments or when there is no such prime."""
    args = [_u64(v, name) for v, name in ((bits, "bits"), (log2_order, "log2_order"),
                                         (index, "index"))]
    for v, name in zip(args, ("bits", "log2_order", "index")):
        if v >= 1 << 32:
            raise InvalidArgumentError(Status.EINVAL, f"{name} = {v} is out of range")
    p = ctypes.c_uint64()
    check(_lib.find_prime(*args, ctypes.byref(p)), f"ntt_find_prime({bits}, {log2_order}, "
          f"{index})")
    return p.value

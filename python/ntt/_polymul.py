"""ntt.polymul_mod: the product of two polynomials modulo any p < 2^63."""

import ctypes

import numpy as np

from . import _cints, _lib
from ._arrays import EINVAL, check_out_alias, check_range, host_operand, is_device
from ._errors import InvalidArgumentError, Status, check
from ._names import backend_code, modmul_code

MAX_LEN = 1 << 30
_P_LIMIT = 1 << 63


def polymul_mod(a, b, p, backend="auto", *, out=None, modmul="default", threads=0):
    """c = a * b mod p, exactly: len(a) + len(b) - 1 coefficients.

    a, b: non-empty 1-D numpy uint64 arrays (C-contiguous) or sequences of
    Python ints, every coefficient in [0, p).  p: any integer in [2, 2^63),
    prime or not (NTT-friendly primes go directly, every other p through
    several NTT primes and the CRT).  len(a) + len(b) - 1 <= 2^30.
    out: an optional uint64 array of that length, not overlapping a or b.
    backend, modmul: names as in ntt.backends(); threads: the OpenMP
    backend's thread count (0: its default).  Returns the uint64 product.

    Host arrays only: device arrays go through a Plan with backend="cuda".
    """
    try:
        p = int(p.__index__())
    except (AttributeError, TypeError):
        raise InvalidArgumentError(EINVAL, f"p: expected an integer, got "
                                   f"{type(p).__name__}") from None
    if not 2 <= p < _P_LIMIT:
        raise InvalidArgumentError(EINVAL, f"p = {p}: polymul_mod needs 2 <= p < 2^63")
    threads = _cints.threads(threads)
    ops = []
    for x, name in ((a, "a"), (b, "b")):
        if is_device(x):
            raise InvalidArgumentError(EINVAL, f"{name}: polymul_mod takes host arrays; "
                                       "multiply device arrays with a Plan made with "
                                       "backend='cuda'")
        op = host_operand(x, name, 64, convert=True)
        if len(op.shape) != 1 or op.size == 0:
            raise InvalidArgumentError(EINVAL, f"{name}: expected a non-empty 1-D array, got "
                                       f"shape {op.shape}")
        ops.append(op)
    x, y = ops
    lc = x.size + y.size - 1
    if lc > MAX_LEN:
        raise InvalidArgumentError(EINVAL, f"len(a) + len(b) - 1 = {lc} exceeds 2^30")
    if out is None:
        c = host_operand(np.empty(lc, np.uint64), "out", 64, False)
    else:
        c = host_operand(out, "out", 64, False)
        if c.shape != (lc,):
            raise InvalidArgumentError(EINVAL, f"out: shape {c.shape}, expected ({lc},)")
        if not c.writable:
            raise InvalidArgumentError(EINVAL, "out: the array is read-only")
        check_out_alias(c, "out", ((x, "a"), (y, "b")), exact_ok=False)
    key = (modmul_code(modmul), threads)
    opts = _options.get(key)
    if opts is None:
        opts = _options[key] = _lib.make_options(key[0], 0, threads, 0)
    status = _lib.polymul_mod_ex(c.ptr, x.ptr, x.size, y.ptr, y.size, p,
                                 backend_code(backend), ctypes.addressof(opts))
    if status == Status.ERANGE:
        # The library checks every coefficient before it writes anything; a
        # second pass over the inputs here would cost as much as a tenth of
        # a product of 2^17-coefficient operands, so the offending
        # coefficient is looked for only once the library has refused them.
        bound = np.array([p], dtype=np.uint64)
        check_range(x, "a", bound, x.size)
        check_range(y, "b", bound, y.size)
    check(status, "ntt_polymul_mod")
    return c.obj


_options = {}  # (modmul, threads) -> options struct; the library only reads it


def cache_clear():
    """Frees the plans polymul_mod keeps between calls."""
    _lib.cache_clear()

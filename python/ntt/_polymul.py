"""ntt.polymul_mod: the product of two polynomials modulo any p >= 2 (a
big p through include/ntt_bigmod.h); ntt.int_mul: the product of two
Python ints through ntt_mpn_mul (include/ntt_bigint.h)."""

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
    if p >= _P_LIMIT:
        if out is not None:
            raise InvalidArgumentError(EINVAL, "out: not taken for p >= 2^63 (the product is a "
                                       "list of ints)")
        return _polymul_big(a, b, p, backend)
    if not 2 <= p < _P_LIMIT:
        raise InvalidArgumentError(EINVAL, f"p = {p}: polymul_mod needs p >= 2")
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


def _ints(x, name):
    """The coefficients of x as a list of Python ints."""
    if is_device(x):
        raise InvalidArgumentError(EINVAL, f"{name}: polymul_mod takes host arrays")
    try:
        v = [int(c.__index__()) for c in x]
    except (AttributeError, TypeError):
        raise InvalidArgumentError(EINVAL, f"{name}: expected a sequence of integers") from None
    if not v:
        raise InvalidArgumentError(EINVAL, f"{name}: expected a non-empty sequence")
    return v


def _words(values, w):
    """Little-endian words of w each, as a uint64 array (values in [0, 2^(64 w)))."""
    out = np.empty(len(values) * w, dtype=np.uint64)
    buf = bytearray()
    for v in values:
        buf += v.to_bytes(8 * w, "little")
    out[:] = np.frombuffer(bytes(buf), dtype="<u8")
    return out


def _from_words(arr, w, count):
    raw = arr.astype("<u8", copy=False).tobytes()
    return [int.from_bytes(raw[8 * w * i:8 * w * (i + 1)], "little") for i in range(count)]


def _polymul_big(a, b, p, backend):
    if _lib.bigmod_polymul is None:
        raise InvalidArgumentError(EINVAL, f"p = {p}: this libntt has no big moduli "
                                   "(ntt_bigmod_polymul)")
    x, y = _ints(a, "a"), _ints(b, "b")
    lc = len(x) + len(y) - 1
    if lc > MAX_LEN:
        raise InvalidArgumentError(EINVAL, f"len(a) + len(b) - 1 = {lc} exceeds 2^30")
    w = (p.bit_length() + 63) // 64
    for v, name in ((x, "a"), (y, "b")):
        for i, c in enumerate(v):
            if c < 0:
                raise InvalidArgumentError(EINVAL, f"{name}[{i}] = {c} is negative")
            if c >= p:
                # What the library would say, without converting the rest.
                from ._errors import RangeError
                raise RangeError(Status.ERANGE, f"{name}[{i}] >= p")
    m, xa, ya = _words([p], w), _words(x, w), _words(y, w)
    c = np.empty(lc * w, dtype=np.uint64)
    status = _lib.bigmod_polymul(c.ctypes.data, xa.ctypes.data, len(x), ya.ctypes.data, len(y),
                                 m.ctypes.data, w, backend_code(backend))
    check(status, "ntt_bigmod_polymul")
    return _from_words(c, w, lc)


def int_mul(x, y, backend="auto", *, threads=0):
    """x * y for Python ints of any size and sign, through ntt_mpn_mul (the
    magnitudes' words as coefficients of NTT products modulo four primes;
    schoolbook for short ones).  Equal to x * y."""
    try:
        x, y = int(x.__index__()), int(y.__index__())
    except (AttributeError, TypeError):
        raise InvalidArgumentError(EINVAL, "int_mul takes integers") from None
    if _lib.mpn_mul is None:
        raise InvalidArgumentError(EINVAL, "this libntt has no ntt_mpn_mul")
    threads = _cints.threads(threads)
    neg = (x < 0) != (y < 0)
    x, y = abs(x), abs(y)
    if x == 0 or y == 0:
        return 0
    na, nb = (x.bit_length() + 63) // 64, (y.bit_length() + 63) // 64
    xa = np.frombuffer(x.to_bytes(8 * na, "little"), dtype="<u8").copy()
    ya = np.frombuffer(y.to_bytes(8 * nb, "little"), dtype="<u8").copy()
    c = np.empty(na + nb, dtype=np.uint64)
    key = (0, threads)
    opts = _options.get(key)
    if opts is None:
        opts = _options[key] = _lib.make_options(0, 0, threads, 0)
    status = _lib.mpn_mul(c.ctypes.data, xa.ctypes.data, na, ya.ctypes.data, nb,
                          backend_code(backend), ctypes.addressof(opts))
    check(status, "ntt_mpn_mul")
    r = int.from_bytes(c.astype("<u8", copy=False).tobytes(), "little")
    return -r if neg else r

"""ntt.field: NTTs over big prime fields (65 to 1024 bits) of
include/ntt_field.h, on numpy arrays of words or lists of Python ints.

    import ntt.field
    with ntt.field.Field("bls12-381-r") as F:
        with F.plan(1 << 12) as plan:
            spec = plan.forward(coeffs)        # coeffs: n Python ints, or
                                               # a uint64 array (n, F.words)

A Field is a prime p given as an int or a preset name ("bn254-r",
"bn254-p", "bls12-381-r", "bls12-381-p").  Elements are F.words
little-endian 64-bit words: arrays are C-contiguous numpy uint64 of shape
(..., F.words) (a transform's operand (n, words), a batch (count, n,
words)), or Python ints in [0, p), given and returned as lists.  Every
element must be below p (ntt.RangeError otherwise, nothing written).

Transforms give the same words in the canonical and the Montgomery form
(x 2^(64 words) mod p; F.to_mont, F.from_mont); products (pointwise,
polymul) take the canonical form unless the plan was made with
montgomery=True.  The transforms, orders, coset and product rules are
those of ntt_field.h.  Every call releases the GIL; a plan's calls are
serialized by a lock.
"""

import ctypes
import threading

import numpy as np

from . import _lib
from ._errors import InvalidArgumentError, Status, check

__all__ = ["Field", "FieldPlan", "PRESETS"]

if not hasattr(_lib.lib, "ntt_field_create"):
    raise ImportError(f"ntt.field: {_lib.path} has no field module (ntt_field_create)")

_P = ctypes.c_void_p
_st = ctypes.c_int
_sz = ctypes.c_size_t
_create = _lib._proto("ntt_field_create", _st, ctypes.POINTER(_P), _P, _sz)
_create_preset = _lib._proto("ntt_field_create_preset", _st, ctypes.POINTER(_P), ctypes.c_int)
_destroy = _lib._proto("ntt_field_destroy", None, _P)
_words = _lib._proto("ntt_field_words", _sz, _P)
_bits = _lib._proto("ntt_field_bits", ctypes.c_uint, _P)
_adicity = _lib._proto("ntt_field_two_adicity", ctypes.c_uint, _P)
_generator = _lib._proto("ntt_field_generator", ctypes.c_uint64, _P)
_modulus = _lib._proto("ntt_field_modulus", _P, _P)
_to_mont = _lib._proto("ntt_field_to_mont", _st, _P, _P, _P, _sz)
_from_mont = _lib._proto("ntt_field_from_mont", _st, _P, _P, _P, _sz)


class _Options(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint), ("threads", ctypes.c_int), ("coset_shift", _P)]


_plan_create = _lib._proto("ntt_field_plan_create", _st, ctypes.POINTER(_P), _P, _sz,
                           ctypes.POINTER(_Options))
_plan_destroy = _lib._proto("ntt_field_plan_destroy", None, _P)
_plan_root = _lib._proto("ntt_field_plan_root", _st, _P, _P)
_forward = _lib._proto("ntt_field_forward_batch", _st, _P, _P, _sz, _sz)
_inverse = _lib._proto("ntt_field_inverse_batch", _st, _P, _P, _sz, _sz)
_pointwise = _lib._proto("ntt_field_pointwise_batch", _st, _P, _P, _P, _P, _sz, _sz)
_polymul = _lib._proto("ntt_field_polymul", _st, _P, _P, _P, _P)
_linear = _lib._proto("ntt_field_polymul_linear", _st, _P, _P, _P, _sz, _P, _sz)

PRESETS = {"bn254-r": 0, "bn254-p": 1, "bls12-381-r": 2, "bls12-381-p": 3}
_NATURAL, _COSET, _MONT = 2, 4, 8
_U64 = np.dtype(np.uint64)
EINVAL = Status.EINVAL


def _ptr(a):
    return a.ctypes.data


def _to_words(x, w, name):
    """An array (..., w) of uint64 from a list of ints or an array."""
    if isinstance(x, np.ndarray):
        if x.dtype != _U64 or x.ndim < 1 or x.shape[-1] != w:
            raise InvalidArgumentError(EINVAL, f"{name}: expected uint64 words of shape "
                                       f"(..., {w}), got {x.dtype} {x.shape}")
        return np.ascontiguousarray(x), True
    try:
        vals = [int(v) for v in x]
    except TypeError:
        raise InvalidArgumentError(EINVAL, f"{name}: expected a sequence of ints or a uint64 "
                                   "array") from None
    out = np.zeros((len(vals), w), dtype=_U64)
    mask = (1 << 64) - 1
    for i, v in enumerate(vals):
        if v < 0 or v >> (64 * w):
            raise InvalidArgumentError(EINVAL, f"{name}[{i}] = {v} does not fit {w} words")
        for j in range(w):
            out[i, j] = (v >> (64 * j)) & mask
    return out, False


def _to_ints(a):
    return [sum(int(v) << (64 * j) for j, v in enumerate(row)) for row in a.reshape(-1, a.shape[-1])]


class Field:
    """The prime field of p (an int of 65..1024 bits, or a preset name)."""

    def __init__(self, p):
        h = _P()
        if isinstance(p, str):
            if p not in PRESETS:
                raise InvalidArgumentError(EINVAL, f"unknown preset {p!r}; presets: "
                                           f"{', '.join(PRESETS)}")
            check(_create_preset(ctypes.byref(h), PRESETS[p]), "ntt_field_create_preset")
        else:
            p = int(p)
            if p <= 0:
                raise InvalidArgumentError(EINVAL, f"p = {p} is not positive")
            w = (p.bit_length() + 63) // 64
            words, _ = _to_words([p], w, "p")
            check(_create(ctypes.byref(h), _ptr(words), w), "ntt_field_create")
        self._h = h
        self.words = int(_words(h))
        self.bits = int(_bits(h))
        self.two_adicity = int(_adicity(h))
        self.generator = int(_generator(h))
        words = (ctypes.c_uint64 * self.words).from_address(_modulus(h))
        self.p = sum(int(v) << (64 * j) for j, v in enumerate(words))

    def close(self):
        if getattr(self, "_h", None):
            _destroy(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _convert(self, fn, name, x):
        a, is_arr = _to_words(x, self.words, name)
        out = np.empty_like(a)
        check(fn(self._h, _ptr(out), _ptr(a), a.size // self.words), name)
        return out if is_arr else _to_ints(out)

    def to_mont(self, x):
        """x R mod p, R = 2^(64 words), for each element."""
        return self._convert(_to_mont, "ntt_field_to_mont", x)

    def from_mont(self, x):
        """x R^-1 mod p for each element."""
        return self._convert(_from_mont, "ntt_field_from_mont", x)

    def plan(self, n, natural_order=False, coset=False, coset_shift=None, montgomery=False,
             threads=0):
        """A FieldPlan of n points (ntt_field_plan_create)."""
        return FieldPlan(self, n, natural_order, coset, coset_shift, montgomery, threads)


class FieldPlan:
    """Transforms of n points over a Field (ntt_field_plan_*)."""

    def __init__(self, field, n, natural_order=False, coset=False, coset_shift=None,
                 montgomery=False, threads=0):
        self.n, self.words = int(n), field.words
        flags = (_NATURAL if natural_order else 0) | (_COSET if coset else 0) | \
            (_MONT if montgomery else 0)
        shift = None
        if coset_shift is not None:
            shift, _ = _to_words([coset_shift], self.words, "coset_shift")
        o = _Options(flags, int(threads), _ptr(shift) if shift is not None else None)
        h = _P()
        check(_plan_create(ctypes.byref(h), field._h, self.n, ctypes.byref(o)),
              "ntt_field_plan_create")
        self._h = h
        self._lock = threading.Lock()
        root = np.zeros(self.words, dtype=_U64)
        check(_plan_root(h, _ptr(root)), "ntt_field_plan_root")
        self.root = _to_ints(root.reshape(1, -1))[0]

    def close(self):
        if getattr(self, "_h", None):
            _plan_destroy(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _operand(self, x, name):
        a, is_arr = _to_words(x, self.words, name)
        if a.size % (self.n * self.words):
            raise InvalidArgumentError(EINVAL, f"{name}: {a.size // self.words} elements are "
                                       f"not whole items of n = {self.n}")
        return a.copy(), is_arr, a.size // (self.n * self.words)

    def _transform(self, fn, name, x):
        a, is_arr, count = self._operand(x, "a")
        with self._lock:
            check(fn(self._h, _ptr(a), count, self.n), name)
        return a if is_arr else _to_ints(a)

    def forward(self, a):
        """NTT(a) of each item (a new array, or a list of ints)."""
        return self._transform(_forward, "ntt_field_forward_batch", a)

    def inverse(self, a):
        """NTT^-1(a) of each item, 1/n included."""
        return self._transform(_inverse, "ntt_field_inverse_batch", a)

    def pointwise(self, a, b):
        """a[i] b[i] of each item (the form the plan was made for)."""
        x, is_arr, count = self._operand(a, "a")
        y, _, cy = self._operand(b, "b")
        if cy != count:
            raise InvalidArgumentError(EINVAL, "a and b hold different numbers of items")
        with self._lock:
            check(_pointwise(self._h, _ptr(x), _ptr(x), _ptr(y), count, self.n),
                  "ntt_field_pointwise_batch")
        return x if is_arr else _to_ints(x)

    def polymul(self, a, b):
        """a b mod (x^n - 1) (mod x^n - g^n on a coset plan), n elements each."""
        x, is_arr, count = self._operand(a, "a")
        y, _, cy = self._operand(b, "b")
        if count != 1 or cy != 1:
            raise InvalidArgumentError(EINVAL, "polymul takes one item of n elements each")
        with self._lock:
            check(_polymul(self._h, _ptr(x), _ptr(x), _ptr(y)), "ntt_field_polymul")
        return x if is_arr else _to_ints(x)

    def polymul_linear(self, a, b):
        """The exact product of a (la elements) and b (lb), la + lb - 1 <= n."""
        x, is_arr = _to_words(a, self.words, "a")
        y, _ = _to_words(b, self.words, "b")
        la, lb = x.size // self.words, y.size // self.words
        if la == 0 or lb == 0:
            raise InvalidArgumentError(EINVAL, "polymul_linear needs la, lb >= 1")
        c = np.zeros((la + lb - 1, self.words), dtype=_U64)
        with self._lock:
            check(_linear(self._h, _ptr(c), _ptr(x), la, _ptr(y), lb),
                  "ntt_field_polymul_linear")
        return c if is_arr else _to_ints(c)

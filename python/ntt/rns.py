"""ntt.rns: residue number systems and the CKKS key-switching stages of
include/ntt_rns.h, on numpy arrays.

    import ntt, ntt.rns
    q = [ntt.find_prime(50, 12, i) for i in range(4)]       # 2N | q-1, N = 2048
    p = [ntt.find_prime(55, 12, i) for i in range(2)]
    with ntt.rns.Context(2048, q, p, dnum=2) as ctx:
        out0, out1 = ctx.keyswitch(x, level=3, key=key)

A Context fixes the negacyclic size N, the ciphertext primes Q = q_0 .. q_L,
the special primes P = p_0 .. p_{K-1} and the digit count dnum.  Its limbs
are numbered 0 .. L+K: q_0 .. q_L, then p_0 .. p_{K-1}.

Polynomials are C-contiguous numpy uint64 arrays of shape (limbs, N), row k
holding the residues modulo the k-th prime of the list the call names:
"at level l" means on Q_l = q_0 .. q_l (l+1 rows); "extended at level l"
means Q_l then P (l+1+K rows).  Coefficient form is the N coefficients of a
polynomial mod X^N + 1 in natural order; evaluation form is what the
library's negacyclic forward transform makes of it (bit-reversed order, as
ntt.Plan(N, q, negacyclic=True).forward).  Each method says which form it
takes and gives.

Digits: alpha = ceil((L+1)/dnum); at level l there are beta(l) =
ceil((l+1)/alpha) digits, digit j being q_{j*alpha} .. up to q_l
(ctx.digit_range(l, j)).

Every input word must be below its limb's prime; inputs are scanned by the
library before anything is written (RangeError naming the word), except
the keys of ks_inner and keyswitch, which are as large as the rest of the
work and are scanned only by key_check (words >= their prime there give
unspecified results, never out-of-bounds accesses).  Shapes, dtypes,
contiguity and aliasing are checked here before any C call, with the
exception the library's status would give (ntt.InvalidArgumentError for
NTT_EINVAL, ...).  Every call releases the GIL; one context's calls are
serialized by a lock (the C context owns scratch its calls share).

Device arrays: contexts are CPU-only in this version; the device-pointer
forms (ntt_rns_cuda_*, the host arguments plus a stream) will be bound here
as methods taking __cuda_array_interface__ arrays and stream=, like
ntt.Plan's, on a Context(..., backend="cuda").
"""

import ctypes
import threading

import numpy as np

from . import _cints, _lib
from ._arrays import check_range, host_operand, is_device
from ._errors import (InvalidArgumentError, ModulusError, Status,
                      UnsupportedError, check)
from ._names import backend_code, backend_name
from ._numtheory import is_prime
from ._owned import Owned
from ._plan import MAX_LOG2_N, _int, _roots

if _lib.rns_fns is None:
    raise ImportError(f"ntt.rns: {_lib.path} has no RNS module (ntt_rns_create); "
                      "build libntt with src/rns")

_F = _lib.rns_fns
EINVAL = Status.EINVAL
MAX_LIMBS = _lib.RNS_MAX_LIMBS
PRIME_BITS = _lib.RNS_PRIME_BITS
_U64 = np.dtype(np.uint64)

__all__ = ["Context", "MAX_LIMBS", "PRIME_BITS"]


def _ints(xs, name):
    if isinstance(xs, (str, bytes)):
        raise InvalidArgumentError(EINVAL, f"{name}: expected a sequence of integers")
    try:
        it = iter(xs)
    except TypeError:
        raise InvalidArgumentError(EINVAL, f"{name}: expected a sequence of integers, got "
                                   f"{type(xs).__name__}") from None
    return tuple(_int(x, name) for x in it)


class Context(Owned):
    """An RNS context: Context(n, q, p=(), dnum=1, backend="auto", threads=0).

    n: N, a power of two in [2, 2^30].  q: the primes q_0 .. q_L (at least
    one); p: the special primes p_0 .. p_{K-1} (none: no key switching,
    modup, moddown).  Every prime distinct, 2 < prime < 2^61 and 2N |
    prime - 1; L+1+K <= 256.  dnum: 1 .. L+1.  backend: "auto", "scalar",
    "avx2", "avx512" or "openmp" (not "cuda" in this version); threads: the
    OpenMP backend's threads over limbs (0: its default), 0 or 1 for the
    others.

    Attributes: n, q, p, primes (q then p: limb k's prime is primes[k]),
    roots (limb k's root of order 2N, z^((q-1)/2N) for the smallest
    quadratic non-residue z: evaluation form holds the values at its odd
    powers, in bit-reversed order),
    L (= len(q) - 1), K (= len(p)), dnum, alpha, backend (resolved, never
    "auto"), threads, closed.  Use it as a context manager or call close().
    """

    _destroy = staticmethod(_F["destroy"])

    def __init__(self, n, q, p=(), dnum=1, backend="auto", threads=0):
        self._handle = None
        n = _int(n, "n")
        if n < 2 or n & (n - 1) or n > 1 << MAX_LOG2_N:
            raise InvalidArgumentError(EINVAL, f"n = {n}: expected a power of two in "
                                       f"[2, 2^{MAX_LOG2_N}]")
        q = _ints(q, "q")
        p = _ints(p, "p")
        if not q:
            raise InvalidArgumentError(EINVAL, "q: at least one prime is needed")
        if len(q) + len(p) > MAX_LIMBS:
            raise InvalidArgumentError(EINVAL, f"len(q) + len(p) = {len(q) + len(p)} exceeds "
                                       f"{MAX_LIMBS} limbs")
        dnum = _int(dnum, "dnum")
        if not 1 <= dnum <= len(q):
            raise InvalidArgumentError(EINVAL, f"dnum = {dnum}: expected 1 .. len(q) = "
                                       f"{len(q)}")
        threads = _cints.threads(threads)
        code = backend_code(backend)
        if code == _lib.BACKEND_CUDA:
            raise UnsupportedError(Status.EUNSUPPORTED, "backend 'cuda': RNS contexts are "
                                   "CPU-only in this version (ntt_rns_cuda_* is not in "
                                   "the library yet)")
        if threads > 1 and code not in (_lib.BACKEND_AUTO, _lib.BACKEND_OPENMP):
            raise InvalidArgumentError(EINVAL, f"threads = {threads}: only the openmp "
                                       f"backend runs several threads (backend {backend!r} "
                                       "takes 0 or 1)")
        seen = {}
        for name, primes in (("q", q), ("p", p)):
            for i, v in enumerate(primes):
                where = f"{name}[{i}] = {v}"
                if not 2 < v < 1 << PRIME_BITS:
                    raise ModulusError(Status.EMODULUS, f"{where}: expected 2 < prime < "
                                       f"2^{PRIME_BITS}")
                if not is_prime(v):
                    raise ModulusError(Status.EMODULUS, f"{where} is not prime")
                if (v - 1) % (2 * n):
                    raise ModulusError(Status.EMODULUS, f"{where}: 2N = {2 * n} does not "
                                       "divide prime - 1")
                if v in seen:
                    raise ModulusError(Status.EMODULUS, f"{where} is also {seen[v]}: the "
                                       "primes must be distinct")
                seen[v] = f"{name}[{i}]"
        qa = (ctypes.c_uint64 * len(q))(*q)
        pa = (ctypes.c_uint64 * max(len(p), 1))(*p)
        params = _lib.RnsParams(n=n, q=ctypes.addressof(qa), q_count=len(q),
                                p=ctypes.addressof(pa) if p else None, p_count=len(p),
                                dnum=dnum, backend=code, threads=threads)
        handle = ctypes.c_void_p()
        status = _F["create"](ctypes.byref(handle), ctypes.byref(params))
        if status == EINVAL and threads > 1 and code == _lib.BACKEND_AUTO:
            auto = backend_name(_lib.backend_resolve_auto())
            raise InvalidArgumentError(status, f"threads = {threads}: backend 'auto' is "
                                       f"{auto!r} here, and only openmp runs several threads")
        check(status, "ntt_rns_create")
        self._handle = handle.value
        self._lock = threading.Lock()
        h = self._handle
        self.n = _F["n"](h)
        self.q = q
        self.p = p
        self.L = len(q) - 1
        self.K = len(p)
        self.dnum = _F["dnum"](h)
        self.alpha = _F["alpha"](h)
        self.backend = backend_name(_F["backend"](h))
        self.threads = _F["threads"](h)
        ptr = ctypes.POINTER(ctypes.c_uint64)()
        count = _F["primes"](h, ctypes.byref(ptr))
        self.primes = tuple(ptr[i] for i in range(count))
        self._bounds = np.array(self.primes, dtype=_U64)
        self.roots = _roots(_F.get("root"), h, count, "ntt_rns_root")

    # ---- queries --------------------------------------------------------------

    def __repr__(self):
        state = ", closed" if self.closed else ""
        return (f"ntt.rns.Context(n={self.n}, q={list(self.q)}, p={list(self.p)}, "
                f"dnum={self.dnum}, backend={self.backend!r}, threads={self.threads}{state})")

    def digits(self, level):
        """beta(level) = ceil((level+1)/alpha), the digits at that level."""
        with self._lock:
            return _F["digits"](self._live(), self._level(level))

    def digit_range(self, level, digit):
        """(first, count): digit `digit` at level `level` is limbs first ..
        first+count-1 of Q_l."""
        with self._lock:
            return self._digit_range(self._live(), self._level(level), digit)

    def level_limbs(self, level, extended=False):
        """The limb indices of a polynomial at `level`: 0 .. l, then (when
        extended) the K limbs of P, L+1 .. L+K."""
        level = self._level(level)
        return list(range(level + 1)) + (list(range(self.L + 1, self.L + 1 + self.K))
                                         if extended else [])

    # ---- limb transforms and base conversion ------------------------------------

    def forward(self, a, limbs, out=None, *, inplace=False):
        """The negacyclic NTT of each row: coefficient -> evaluation form.
        a: shape (len(limbs), N), row k modulo primes[limbs[k]]; limbs:
        distinct limb indices in 0 .. L+K."""
        return self._transform("forward", a, limbs, out, inplace)

    def inverse(self, a, limbs, out=None, *, inplace=False):
        """The inverse of forward (1/N included): evaluation -> coefficient
        form, row k modulo primes[limbs[k]]."""
        return self._transform("inverse", a, limbs, out, inplace)

    def fastbconv(self, x, src, dst, out=None):
        """FastBConv in coefficient form, coefficient by coefficient:
        out[j] = (sum_i [x[i] (B/b_i)^-1]_{b_i} (B/b_i)) mod primes[dst[j]],
        B the product of the source primes b_i = primes[src[i]] (the HPS/BEHZ
        formula, no correction of the multiple of B).  x: shape (len(src),
        N); result: shape (len(dst), N).  src and dst: distinct limb indices,
        no index in both.  out must not overlap x."""
        with self._lock:
            h = self._live()
            src = self._limb_list(src, "src")
            dst = self._limb_list(dst, "dst")
            both = set(src) & set(dst)
            if both:
                raise InvalidArgumentError(EINVAL, f"limb {min(both)} is in both src and dst")
            x = self._poly(x, "x", len(src))
            c = self._out(out, "out", len(dst), [(x, "x")])
            sa = (ctypes.c_size_t * len(src))(*src)
            da = (ctypes.c_size_t * len(dst))(*dst)
            status = _F["fastbconv"](h, self.n, sa, len(src), x.ptr, da, len(dst), c.ptr)
            self._fail(status, "ntt_rns_fastbconv", [(x, "x", [self.primes[i] for i in src])])
            return c.obj

    # ---- the CKKS stages --------------------------------------------------------

    def modup(self, x, level, digit, out=None):
        """modUp of digit `digit` at level `level`.  x: the digit's limbs,
        shape (count, N) with (first, count) = digit_range(level, digit)
        (usually x_level[first:first+count]), evaluation form.  Result: the
        extended polynomial at that level, shape (level+1+K, N), evaluation
        form; its rows first .. first+count-1 are copies of x, every other
        limb t is NTT(Conv_{digit -> t}(INTT(x))).  out must not overlap x."""
        with self._lock:
            h = self._live()
            self._need_p("modup")
            level = self._level(level)
            digit = _int(digit, "digit")
            first, count = self._digit_range(h, level, digit)
            x = self._poly(x, "x", count, f"digit {digit} at level {level}")
            c = self._out(out, "out", level + 1 + self.K, [(x, "x")])
            status = _F["modup"](h, self.n, level, digit, x.ptr, count, c.ptr,
                                 level + 1 + self.K)
            self._fail(status, "ntt_rns_modup", [(x, "x", self.primes[first:first + count])])
            return c.obj

    def moddown(self, x, level, out=None, *, inplace=False):
        """modDown at level `level`: out_i = (x_i - NTT(Conv_{P -> q_i}
        (INTT(x_P)))) * P^-1 mod q_i, i = 0 .. level (no rounding).  x: the
        extended polynomial at that level, shape (level+1+K, N), evaluation
        form.  Result: shape (level+1, N), evaluation form.  out may be
        x[:level+1] (what inplace=True passes, returning that view) or must
        not overlap x."""
        return self._divide("moddown", x, level, level + 1 + self.K, level + 1, out, inplace)

    def rescale(self, x, level, out=None, *, inplace=False):
        """Rescale at level `level` >= 1: out_i = (x_i - NTT([INTT(x_l)]_{q_i}))
        * q_l^-1 mod q_i, i = 0 .. level-1 (no rounding).  x: shape
        (level+1, N), evaluation form.  Result: shape (level, N),
        evaluation form.  out may be x[:level] (inplace=True) or must not
        overlap x."""
        level = self._level(level)
        if level == 0:
            raise InvalidArgumentError(EINVAL, "rescale: level 0 has no limb to drop")
        return self._divide("rescale", x, level, level + 1, level, out, inplace)

    def ks_inner(self, ext, level, key, out=None):
        """The key-switching inner product at level `level`, pointwise in
        evaluation form: acc_c[t] = sum_{j < beta} ext_j[t] * key_{j,c}[t]
        mod the prime of row t, c = 0, 1, beta = digits(level).

        ext: the beta modUps, shape (beta, level+1+K, N) or (beta*(level+1+K),
        N), evaluation form.  key: see `keyswitch`.  Returns (acc0, acc1),
        each the extended polynomial at that level, shape (level+1+K, N);
        out: a pair of such arrays, overlapping nothing."""
        with self._lock:
            h = self._live()
            self._need_p("ks_inner")
            level = self._level(level)
            e = level + 1 + self.K
            beta = _F["digits"](h, level)
            x = self._poly(ext, "ext", beta * e, f"{beta} digit(s) of {e} limbs at level "
                           f"{level}", leads=[(beta, e)])
            k = self._key(key)
            c0, c1 = self._pair(out, e, [(x, "ext"), (k, "key")])
            status = _F["ks_inner"](h, self.n, level, x.ptr, beta * e, k.ptr, k.size // self.n,
                                    c0.ptr, c1.ptr, e)
            bounds = self._bounds[self.level_limbs(level, extended=True)]
            self._fail(status, "ntt_rns_ks_inner", [(x, "ext", bounds)])
            return c0.obj, c1.obj

    def keyswitch(self, x, level, key, out=None):
        """The hybrid key switch at level `level`: for each digit j < beta
        its modUp, the inner product with the key, then modDown of both
        sums; bit for bit what modup, ks_inner and moddown give.

        x: shape (level+1, N), evaluation form.  key: evaluation form, 2 *
        dnum polynomials on Q_L then P, digit-major, shape (dnum, 2, L+1+K,
        N) or (2*dnum*(L+1+K), N): key[j, c, k] is limb k (q_k for k <= L,
        p_{k-L-1} after) of component c of digit j; also (2*dnum, L+1+K, N),
        row 2j+c.  The key is not scanned
        (see key_check).  Returns (out0, out1), each shape (level+1, N),
        evaluation form; out: a pair of such arrays, overlapping nothing."""
        with self._lock:
            h = self._live()
            self._need_p("keyswitch")
            level = self._level(level)
            x = self._poly(x, "x", level + 1, f"level {level}")
            k = self._key(key)
            c0, c1 = self._pair(out, level + 1, [(x, "x"), (k, "key")])
            status = _F["keyswitch"](h, self.n, level, x.ptr, level + 1, k.ptr,
                                     k.size // self.n, c0.ptr, c1.ptr, level + 1)
            self._fail(status, "ntt_rns_keyswitch", [(x, "x", self._bounds[:level + 1])])
            return c0.obj, c1.obj

    def key_check(self, key):
        """Scans a key (layout of `keyswitch`): raises RangeError naming the
        first word not below its limb's prime; returns None otherwise."""
        with self._lock:
            h = self._live()
            self._need_p("key_check")
            k = self._key(key)
            status = _F["key_check"](h, self.n, k.ptr, k.size // self.n)
            self._fail(status, "ntt_rns_key_check", [(k, "key", self._bounds)])

    # ---- shared machinery ----------------------------------------------------------

    def _live(self):
        if self._handle is None:
            raise InvalidArgumentError(EINVAL, "the context is closed")
        return self._handle

    def _level(self, level):
        level = _int(level, "level")
        if not 0 <= level <= self.L:
            raise InvalidArgumentError(EINVAL, f"level = {level}: expected 0 .. L = {self.L}")
        return level

    def _need_p(self, what):
        if not self.K:
            raise InvalidArgumentError(EINVAL, f"{what}: the context has no special primes "
                                       "(p=()), which key switching needs")

    def _digit_range(self, h, level, digit):
        digit = _int(digit, "digit")
        beta = _F["digits"](h, level)
        if not 0 <= digit < beta:
            raise InvalidArgumentError(EINVAL, f"digit = {digit}: level {level} has "
                                       f"{beta} digit(s)")
        first, count = ctypes.c_size_t(), ctypes.c_size_t()
        check(_F["digit_range"](h, level, digit, ctypes.byref(first), ctypes.byref(count)),
              "ntt_rns_digit_range")
        return first.value, count.value

    def _limb_list(self, limbs, name):
        limbs = _ints(limbs, name)
        if not limbs:
            raise InvalidArgumentError(EINVAL, f"{name}: at least one limb index is needed")
        top = self.L + self.K
        for i, v in enumerate(limbs):
            if not 0 <= v <= top:
                raise InvalidArgumentError(EINVAL, f"{name}[{i}] = {v}: limb indices lie in "
                                           f"0 .. L+K = {top}")
        if len(set(limbs)) != len(limbs):
            dup = next(v for i, v in enumerate(limbs) if v in limbs[:i])
            raise InvalidArgumentError(EINVAL, f"{name}: limb {dup} appears twice")
        return limbs

    def _operand(self, x, name, convert):
        if is_device(x):
            raise UnsupportedError(Status.EUNSUPPORTED, f"{name}: device arrays need the "
                                   "ntt_rns_cuda_* calls, not in the library yet")
        return host_operand(x, name, 64, convert)

    def _poly(self, x, name, limbs, what=None, leads=(), convert=True):
        """x as an Operand of `limbs` rows of N words: shape (limbs, N), or
        lead + (N,) for one of `leads`."""
        op = self._operand(x, name, convert)
        shapes = [(limbs, self.n)] + [tuple(lead) + (self.n,) for lead in leads]
        if op.shape not in shapes:
            ok = " or ".join(str(s) for s in shapes)
            why = f" ({what})" if what else ""
            raise InvalidArgumentError(EINVAL, f"{name}: shape {op.shape}, expected {ok}"
                                       f"{why}")
        return op

    def _out(self, out, name, limbs, inputs, exact=None):
        """The Operand receiving `limbs` rows: `out` checked (shape, dtype,
        layout, writable, no overlap with inputs except the same start
        address as `exact`), or a new array."""
        if out is None:
            return host_operand(np.empty((limbs, self.n), _U64), name, 64, False)
        c = self._poly(out, name, limbs, convert=False)
        if not c.writable:
            raise InvalidArgumentError(EINVAL, f"{name}: the array is read-only")
        for other, other_name in inputs:
            if c.overlaps(other) and not (exact is other and c.ptr == other.ptr):
                rule = f"may start where {other_name} does or must not overlap it" \
                    if exact is other else f"must not overlap {other_name}"
                raise InvalidArgumentError(EINVAL, f"{name} {rule}")
        return c

    def _pair(self, out, limbs, inputs):
        if out is None:
            both = np.empty((2, limbs, self.n), _U64)
            out = (both[0], both[1])
        elif not isinstance(out, (tuple, list)) or len(out) != 2:
            raise InvalidArgumentError(EINVAL, "out: expected a pair of arrays (out0, out1)")
        c0 = self._out(out[0], "out[0]", limbs, inputs)
        c1 = self._out(out[1], "out[1]", limbs, inputs + [(c0, "out[0]")])
        return c0, c1

    def _key(self, key):
        nl = self.L + 1 + self.K
        rows = 2 * self.dnum * nl
        return self._poly(key, "key", rows, f"2 * dnum * (L+1+K) = {rows} limbs",
                          leads=[(self.dnum, 2, nl), (2 * self.dnum, nl)])

    def _fail(self, status, function, checked):
        """Raises for a non-zero status; for NTT_ERANGE, names the first word
        of the checked inputs ((operand, name, row primes)) not below its
        prime."""
        if status == Status.ERANGE:
            for op, name, bounds in checked:
                check_range(op, name, np.asarray(bounds, dtype=_U64), self.n)
        if status:
            check(status, f"{function} (backend {self.backend})")

    def _transform(self, name, a, limbs, out, inplace):
        with self._lock:
            h = self._live()
            limbs = self._limb_list(limbs, "limbs")
            x = self._poly(a, "a", len(limbs), convert=not inplace)
            bounds = self._bounds[list(limbs)]
            if inplace:
                if out is not None:
                    raise InvalidArgumentError(EINVAL, "pass out= or inplace=True, not both")
                if not x.writable:
                    raise InvalidArgumentError(EINVAL, "a: inplace=True on a read-only array")
                c = x
            else:
                # The library transforms in place: scan a before copying it
                # into out, so that a failing call leaves out as it was.
                check_range(x, "a", bounds, self.n)
                c = self._out(out, "out", len(limbs), [(x, "a")], exact=x)
                if c.ptr != x.ptr:
                    np.copyto(c.obj, x.obj)
            la = (ctypes.c_size_t * len(limbs))(*limbs)
            status = _F[name](h, self.n, la, len(limbs), c.ptr)
            self._fail(status, f"ntt_rns_{name}", [(c, "a", bounds)])
            return c.obj

    def _divide(self, name, x, level, in_limbs, out_limbs, out, inplace):
        with self._lock:
            h = self._live()
            if name == "moddown":
                self._need_p(name)
            level = self._level(level)
            x = self._poly(x, "x", in_limbs, f"level {level}" +
                           (" extended by P" if name == "moddown" else ""),
                           convert=not inplace)
            if inplace:
                if out is not None:
                    raise InvalidArgumentError(EINVAL, "pass out= or inplace=True, not both")
                if not x.writable:
                    raise InvalidArgumentError(EINVAL, "x: inplace=True on a read-only array")
                out = x.obj[:out_limbs]
            c = self._out(out, "out", out_limbs, [(x, "x")], exact=x)
            status = _F[name](h, self.n, level, x.ptr, in_limbs, c.ptr, out_limbs)
            bounds = self._bounds[self.level_limbs(level, extended=name == "moddown")]
            self._fail(status, f"ntt_rns_{name}", [(x, "x", bounds)])
            return c.obj

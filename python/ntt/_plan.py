"""ntt.Plan: transforms and products of one size over one modulus or an RNS
base, on host (numpy) arrays or CUDA device arrays."""

import ctypes
import math
import operator
import threading

import numpy as np

from . import _cints, _lib
from ._arrays import (DTYPES, EINVAL, TYPESTR, check_out_alias, check_range,
                      device_operand, host_operand, is_device, stream_handle)
from ._errors import (InvalidArgumentError, ModulusError, Status, UnsupportedError, check)
from ._names import backend_code, backend_name, modmul_code, modmul_name
from ._numtheory import is_prime
from ._owned import Owned

MAX_LOG2_N = 30
_WIDTH_LIMIT = {32: 1 << 30, 64: 1 << 62}


_int = _cints.index


def _check_moduli(moduli, n, width, negacyclic):
    """Says which modulus the library would refuse, and why."""
    order = 2 * n if negacyclic else n
    for p in moduli:
        if not 2 < p < _WIDTH_LIMIT[width]:
            bound = "2^30" if width == 32 else "2^62"
            raise ModulusError(Status.EMODULUS, f"modulus {p}: width {width} needs "
                               f"2 < p < {bound}")
        if not is_prime(p):
            raise ModulusError(Status.EMODULUS, f"modulus {p} is not prime")
        if (p - 1) % order:
            kind = "negacyclic" if negacyclic else "cyclic"
            raise ModulusError(Status.EMODULUS, f"modulus {p}: a {kind} plan of size {n} "
                               f"needs {order} | p-1")


def _roots(fn, handle, count, name):
    """The roots of unity the transforms use, one per modulus or limb (None
    for a libntt without the call)."""
    if fn is None:
        return None
    out = []
    for i in range(count):
        r = ctypes.c_uint64()
        check(fn(handle, i, ctypes.byref(r)), name)
        out.append(r.value)
    return tuple(out)


class Plan(Owned):
    """Transforms of size n modulo one prime or an RNS base of primes.

    Plan(n, moduli, width=64, negacyclic=False, natural_order=False,
         backend="auto", modmul="default", threads=0, batch=0)

    n: a power of two in [2, 2^30].  moduli: a prime or a sequence of
    primes (an RNS base); each needs n | p-1 (2n | p-1 when negacyclic),
    and p < 2^30 for width 32, p < 2^62 for width 64.  Arrays are uint32
    (width 32) or uint64 (width 64), C-contiguous, with coefficients in
    [0, p).

    An array's last axis holds one item of n coefficients; its leading axes
    (if any) are a batch, and item i of the batch uses moduli[i % len(moduli)],
    so a polynomial stored as its RNS limbs, shape (len(moduli), n), is one
    batch.  Spectra are in bit-reversed order unless natural_order.
    plan.roots[i] is the root of unity modulus i's transforms use, of order
    2n (negacyclic) or n: z^((p-1)/order) for the smallest quadratic
    non-residue z mod p (ntt_plan_root); output word k is the input's value
    at roots[i]^(2 brv(k) + 1) (negacyclic) or roots[i]^brv(k), brv(k)
    replaced by k in natural order.

    Each operation returns its result: a new array by default, `out` when
    given, or the input itself with inplace=True.  Host arrays go through
    the library's host calls; arrays with __cuda_array_interface__ (CuPy,
    PyTorch) through its ntt_cuda_* calls, in place or into `out`, on the
    stream given by `stream=` or else by the array's interface, with no
    copies and no synchronization (the plan must use the cuda backend).

    A plan may be shared between threads: its calls are serialized.
    Use it as a context manager or call close() to free it early.
    """

    _destroy = staticmethod(_lib.plan_destroy)

    def __init__(self, n, moduli, width=64, negacyclic=False, natural_order=False,
                 backend="auto", modmul="default", threads=0, batch=0):
        self._handle = None
        n = _int(n, "n")
        if n < 2 or n & (n - 1) or n > 1 << MAX_LOG2_N:
            raise InvalidArgumentError(EINVAL, f"n = {n}: expected a power of two in "
                                       f"[2, 2^{MAX_LOG2_N}]")
        if not isinstance(width, int) or width not in DTYPES:
            raise InvalidArgumentError(EINVAL, f"width = {width!r}: expected 32 or 64")
        if isinstance(moduli, (str, bytes)):
            raise InvalidArgumentError(EINVAL, "moduli: expected an integer or a sequence "
                                       "of integers")
        try:
            moduli = (operator.index(moduli),)
        except TypeError:
            moduli = tuple(_int(p, "moduli") for p in moduli)
        if not moduli:
            raise InvalidArgumentError(EINVAL, "moduli: at least one modulus is needed")
        _check_moduli(moduli, n, width, negacyclic)
        threads = _cints.threads(threads)
        batch = _cints.size(batch, "batch")
        flags = (_lib.FLAG_NEGACYCLIC if negacyclic else 0) | \
            (_lib.FLAG_NATURAL_ORDER if natural_order else 0)
        opts = _lib.make_options(modmul_code(modmul), flags, threads, batch)
        arr = (ctypes.c_uint64 * len(moduli))(*moduli)
        handle = ctypes.c_void_p()
        check(_lib.plan_create_rns(ctypes.byref(handle), n, arr, len(moduli), width,
                                   backend_code(backend), ctypes.addressof(opts)),
              "ntt_plan_create_rns")
        self._handle = handle.value
        self._lock = threading.Lock()
        self.n = n
        self.moduli = moduli
        self.width = width
        self.dtype = DTYPES[width]
        self.negacyclic = bool(negacyclic)
        self.natural_order = bool(natural_order)
        self.threads = threads
        self.batch = batch
        backend = _lib.plan_backend(self._handle)
        self.backend = backend_name(backend)
        self.modmul = modmul_name(_lib.plan_modmul(self._handle))
        self._bounds = np.array(moduli, dtype=self.dtype)
        self.roots = _roots(_lib.plan_root, self._handle, len(moduli), "ntt_plan_root")
        self._fns = {op: fn for (op, w), fn in _lib.exec_fns.items() if w == f"u{width}"}
        self._cuda = backend == _lib.BACKEND_CUDA
        self._typestr = "<" + TYPESTR[width]

    # ---- description ---------------------------------------------------------

    def __repr__(self):
        state = ", closed" if self.closed else ""
        mods = self.moduli[0] if len(self.moduli) == 1 else list(self.moduli)
        return (f"ntt.Plan(n={self.n}, moduli={mods}, width={self.width}, "
                f"negacyclic={self.negacyclic}, natural_order={self.natural_order}, "
                f"backend={self.backend!r}, modmul={self.modmul!r}{state})")

    # ---- operations ----------------------------------------------------------

    def forward(self, a, out=None, *, inplace=False, stream=None):
        """The forward transform of each item: n coefficients in natural
        order -> spectrum (bit-reversed unless natural_order).  Negacyclic
        plans evaluate at the odd powers of a primitive 2n-th root, cyclic
        plans at the powers of an n-th root."""
        return self._transform("forward", a, out, inplace, stream)

    def inverse(self, a, out=None, *, inplace=False, stream=None):
        """The inverse transform, 1/n included: inverse(forward(a)) == a."""
        return self._transform("inverse", a, out, inplace, stream)

    def pointwise(self, a, b, out=None, *, inplace=False, stream=None):
        """c[i] = a[i] * b[i] mod p, item by item (a and b of one shape).
        out may be a or b itself (inplace=True writes into a)."""
        return self._binary("pointwise", a, b, out, inplace, stream)

    def polymul(self, a, b, out=None, *, inplace=False, stream=None):
        """a * b mod (x^n - 1), or mod (x^n + 1) for a negacyclic plan, item
        by item; a, b and the result in natural order.  out may be a or b
        itself (inplace=True writes into a)."""
        return self._binary("polymul", a, b, out, inplace, stream)

    def polymul_linear(self, a, b, out=None, *, stream=None):
        """The exact product of two 1-D polynomials of la, lb >= 1
        coefficients with la + lb - 1 <= n: la + lb - 1 coefficients, mod
        the plan's first modulus.  out must not overlap a or b."""
        with self._lock:
            self._live()
            x, y = self._inputs(((a, "a"), (b, "b")), stream, convert=True)
            for op, name in ((x, "a"), (y, "b")):
                if len(op.shape) != 1 or op.size == 0:
                    raise InvalidArgumentError(EINVAL, f"{name}: expected a non-empty 1-D "
                                               f"array, got shape {op.shape}")
            lc = x.size + y.size - 1
            if lc > self.n:
                raise InvalidArgumentError(EINVAL, f"len(a) + len(b) - 1 = {lc} exceeds the "
                                           f"plan's size {self.n}")
            if not x.device:
                check_range(x, "a", self._bounds[:1], self.n)
                check_range(y, "b", self._bounds[:1], self.n)
            c = self._target(out, (lc,), x, ((x, "a"), (y, "b")), exact_ok=False)
            if x.device:
                status = self._fns["cuda_polymul"](self._handle, c.ptr, lc, x.ptr, x.size,
                                                   y.ptr, y.size, 1, self.n,
                                                   stream_handle(x.stream))
            else:
                status = self._fns["polymul_linear"](self._handle, c.ptr, x.ptr, x.size,
                                                     y.ptr, y.size)
            if status:
                self._fail(status, "polymul_linear")
            return c.obj

    # ---- shared machinery ----------------------------------------------------

    def _live(self):
        if self._handle is None:
            raise InvalidArgumentError(EINVAL, "the plan is closed")

    def _fail(self, status, name):
        check(status, f"{name} (width {self.width}, backend {self.backend})", self._handle)

    def _transform(self, name, a, out, inplace, stream):
        if (out is a if not inplace else out is None) and type(a) is not np.ndarray:
            done = self._device_transform(name, a, stream)
            if done is not None:
                return done
        with self._lock:
            self._live()
            (x,) = self._inputs(((a, "a"),), stream, convert=not inplace)
            count = self._items(x, "a")
            if not x.device:
                check_range(x, "a", self._bounds, self.n)
            c = self._result(x, out, inplace, ((x, "a"),))
            if not c.same_memory(x):
                if x.device:
                    raise InvalidArgumentError(EINVAL, f"{name}: device arrays are "
                                               "transformed in place (the CUDA calls never "
                                               "copy): pass inplace=True or out=a")
                np.copyto(c.obj, x.obj)
            if count:
                if x.device:
                    status = self._fns["cuda_" + name](self._handle, c.ptr, count, self.n,
                                                       stream_handle(x.stream))
                else:
                    status = self._fns[name](self._handle, c.ptr, count, self.n)
                if status:
                    self._fail(status, name)
            return c.obj

    def _device_transform(self, name, a, stream):
        """The common device call (the plan's element type, C-contiguous,
        writable, on a CUDA plan) in as little Python as it takes; None for
        anything else, which the checked path then handles or refuses with
        its messages."""
        try:
            cai = a.__cuda_array_interface__
        except AttributeError:
            return None
        shape = cai["shape"]
        if (not self._cuda or cai["typestr"] != self._typestr or not shape or
                shape[-1] != self.n or cai.get("strides") is not None or
                cai.get("mask") is not None):
            return None
        ptr, readonly = cai["data"]
        if readonly:
            return None
        if stream is None:
            stream = cai.get("stream") or 0
        if type(stream) is not int or not 0 <= stream < 1 << 64:
            stream = stream_handle(stream)
        count = math.prod(shape) // self.n
        with self._lock:
            if self._handle is None:
                return None
            if count:
                status = self._fns["cuda_" + name](self._handle, ptr, count, self.n, stream)
                if status:
                    self._fail(status, name)
        return a

    def _binary(self, name, a, b, out, inplace, stream):
        with self._lock:
            self._live()
            x, y = self._inputs(((a, "a"), (b, "b")), stream, convert=not inplace)
            if x.shape != y.shape:
                raise InvalidArgumentError(EINVAL, f"a and b differ in shape: {x.shape} and "
                                           f"{y.shape}")
            count = self._items(x, "a")
            if not x.device:
                check_range(x, "a", self._bounds, self.n)
                check_range(y, "b", self._bounds, self.n)
            c = self._result(x, out, inplace, ((x, "a"), (y, "b")))
            if count:
                fn = self._fns[("cuda_" if x.device else "") + name]
                n = self.n
                if not x.device:
                    status = fn(self._handle, c.ptr, x.ptr, y.ptr, count, n)
                elif name == "pointwise":
                    status = fn(self._handle, c.ptr, x.ptr, y.ptr, count, n,
                                stream_handle(x.stream))
                else:
                    status = fn(self._handle, c.ptr, n, x.ptr, n, y.ptr, n, count, n,
                                stream_handle(x.stream))
                if status:
                    self._fail(status, name)
            return c.obj

    def _inputs(self, named, stream, convert):
        """The call's input Operands, all on the host or all on a device
        (then the plan must be a CUDA plan)."""
        device = is_device(named[0][0])
        if device and not self._cuda:
            raise UnsupportedError(Status.EUNSUPPORTED, "device arrays need a plan made with "
                                   f"backend='cuda' (this plan's is {self.backend!r})")
        if stream is not None and not device:
            raise InvalidArgumentError(EINVAL, "stream= applies to device arrays only")
        return [self._operand(x, name, device, stream, convert) for x, name in named]

    def _result(self, x, out, inplace, inputs):
        """The Operand receiving the result of a call on x."""
        if not inplace:
            return self._target(out, x.shape, x, inputs, exact_ok=True)
        if out is not None:
            raise InvalidArgumentError(EINVAL, "pass out= or inplace=True, not both")
        if not x.writable:
            raise InvalidArgumentError(EINVAL, "a: inplace=True on a read-only array")
        return x

    def _items(self, op, name):
        """The number of items in op (its leading axes flattened)."""
        if len(op.shape) == 0 or op.shape[-1] != self.n:
            raise InvalidArgumentError(EINVAL, f"{name}: shape {op.shape}, expected (..., "
                                       f"{self.n}): the last axis holds one item of n = "
                                       f"{self.n} coefficients")
        return op.size // self.n

    def _target(self, out, shape, like, inputs, exact_ok):
        """The operand that receives the result: `out` checked (shape, dtype,
        layout, writable, aliasing), or a new host array.  Device results
        need an `out` (the package allocates no device memory)."""
        if out is None:
            if like.device:
                raise InvalidArgumentError(EINVAL, "device arrays: pass out= (or "
                                           "inplace=True); the package allocates no device "
                                           "memory")
            return host_operand(np.empty(shape, self.dtype), "out", self.width, False)
        c = self._operand(out, "out", like.device, like.stream, convert=False)
        if c.shape != tuple(shape):
            raise InvalidArgumentError(EINVAL, f"out: shape {c.shape}, expected "
                                       f"{tuple(shape)}")
        if not c.writable:
            raise InvalidArgumentError(EINVAL, "out: the array is read-only")
        check_out_alias(c, "out", inputs, exact_ok)
        return c

    def _operand(self, x, name, device, stream, convert):
        """x as an Operand on the same side (host or device) as the call's
        other operands."""
        if is_device(x) != device:
            where = "a device" if device else "a host"
            raise InvalidArgumentError(EINVAL, f"{name}: expected {where} array like the "
                                       f"call's other operands")
        if device:
            return device_operand(x, name, self.width, stream)
        return host_operand(x, name, self.width, convert)

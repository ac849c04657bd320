"""Finding and loading libntt, and the ctypes prototypes of include/ntt.h.

The library is looked for in this order, and the first place that holds one
is used (a library that is found but fails to load is an error, never a
reason to try the next place):

1. the environment variable NTT_LIBRARY: a path to libntt.so (or to the
   directory holding it), relative to the current directory at import
   (the package makes it absolute in os.environ, for subprocesses);
2. the package's own copy: libntt.so* placed next to this file;
3. the system loader's search path (LD_LIBRARY_PATH, ld.so.cache, the
   default directories): libntt.so.0, then libntt.so.

ctypes.CDLL (not PyDLL) releases the GIL for the duration of every foreign
call, so other Python threads run while a transform does.
"""

import ctypes
import ctypes.util
import glob
import os

from ctypes import (POINTER, Structure, c_char_p, c_int, c_size_t, c_uint,
                    c_uint64, c_void_p)

_SONAME = "libntt.so.0"


def _package_copies():
    here = os.path.dirname(os.path.abspath(__file__))
    pats = ("libntt.so.0", "libntt.so", "libntt.so.*", "libntt*.dylib", "ntt.dll")
    for pat in pats:
        for path in sorted(glob.glob(os.path.join(here, pat))):
            if os.path.isfile(path):
                yield path


def _loaded_path(lib, fallback):
    """The file the loader actually mapped for lib (dladdr on one of its
    symbols), so that a library found on the loader path is named by its
    real location."""
    class DlInfo(Structure):
        _fields_ = [("dli_fname", c_char_p), ("dli_fbase", c_void_p),
                    ("dli_sname", c_char_p), ("dli_saddr", c_void_p)]
    try:
        dladdr = ctypes.CDLL(None).dladdr
    except (OSError, AttributeError):
        return fallback
    dladdr.argtypes = [c_void_p, POINTER(DlInfo)]
    dladdr.restype = c_int
    info = DlInfo()
    addr = ctypes.cast(lib.ntt_status_string, c_void_p).value
    if dladdr(addr, ctypes.byref(info)) and info.dli_fname:
        return os.path.realpath(os.fsdecode(info.dli_fname))
    return fallback


def _load():
    """(CDLL, path, origin) or ImportError saying where it looked."""
    env = os.environ.get("NTT_LIBRARY")
    if env:
        # Relative to the directory the program started in: made absolute
        # for this process and the ones it starts, whatever directory they
        # run in (a test's subprocess, a script that changes directory).
        path = os.environ["NTT_LIBRARY"] = os.path.abspath(env)
        if os.path.isdir(path):
            found = [p for p in (os.path.join(path, n) for n in (_SONAME, "libntt.so"))
                     if os.path.isfile(p)]
            if not found:
                raise ImportError(f"ntt: NTT_LIBRARY={env} is a directory without "
                                  f"{_SONAME} or libntt.so")
            path = found[0]
        try:
            lib = ctypes.CDLL(os.path.abspath(path))
        except OSError as e:
            raise ImportError(f"ntt: NTT_LIBRARY={env} could not be loaded: {e}") from e
        return lib, _loaded_path(lib, os.path.realpath(path)), "NTT_LIBRARY"

    for path in _package_copies():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise ImportError(f"ntt: the package's copy {path} could not be loaded: {e}") from e
        return lib, _loaded_path(lib, os.path.realpath(path)), "package"

    names = [_SONAME, "libntt.so"]
    found = ctypes.util.find_library("ntt")
    if found and found not in names:
        names.append(found)
    errors = []
    for name in names:
        try:
            lib = ctypes.CDLL(name)
        except OSError as e:
            errors.append(f"{name}: {e}")
            continue
        return lib, _loaded_path(lib, name), "system"
    raise ImportError(
        "ntt: libntt was not found. Set NTT_LIBRARY to the path of libntt.so "
        "(e.g. NTT_LIBRARY=build/libntt.so after building the C library), place "
        "libntt.so.0 next to ntt/__init__.py, or install libntt where the system "
        "loader finds it (LD_LIBRARY_PATH, ldconfig). Loader said: " + "; ".join(errors))


lib, path, origin = _load()


def _proto(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


# ntt_status is an int-sized enum; pointers to caller arrays travel as plain
# addresses (c_void_p), which ctypes converts fastest.
_st = c_int
_P = c_void_p

status_string = _proto("ntt_status_string", c_char_p, c_int)
backend_available = _proto("ntt_backend_available", c_int, c_int)
backend_name = _proto("ntt_backend_name", c_char_p, c_int)
backend_from_name = _proto("ntt_backend_from_name", _st, c_char_p, POINTER(c_int))
backend_resolve_auto = _proto("ntt_backend_resolve_auto", c_int)
modmul_name = _proto("ntt_modmul_name", c_char_p, c_int)
modmul_from_name = _proto("ntt_modmul_from_name", _st, c_char_p, POINTER(c_int))

plan_create = _proto("ntt_plan_create", _st, POINTER(c_void_p), c_size_t, c_uint64, c_int,
                     c_int, _P)
plan_create_rns = _proto("ntt_plan_create_rns", _st, POINTER(c_void_p), c_size_t, _P,
                         c_size_t, c_int, c_int, _P)
plan_destroy = _proto("ntt_plan_destroy", None, c_void_p)
plan_backend = _proto("ntt_plan_backend", c_int, c_void_p)
# The root each modulus's transforms use (libraries before it have none).
plan_root = (_proto("ntt_plan_root", _st, c_void_p, c_size_t, POINTER(c_uint64))
             if hasattr(lib, "ntt_plan_root") else None)
plan_modmul = _proto("ntt_plan_modmul", c_int, c_void_p)

# Every execution entry point, by (operation, width): the batched host
# calls, the linear product and the device-pointer calls.
exec_fns = {}
for _w in ("u32", "u64"):
    exec_fns["forward", _w] = _proto(f"ntt_forward_batch_{_w}", _st, c_void_p, _P, c_size_t,
                                     c_size_t)
    exec_fns["inverse", _w] = _proto(f"ntt_inverse_batch_{_w}", _st, c_void_p, _P, c_size_t,
                                     c_size_t)
    exec_fns["pointwise", _w] = _proto(f"ntt_pointwise_batch_{_w}", _st, c_void_p, _P, _P, _P,
                                       c_size_t, c_size_t)
    exec_fns["polymul", _w] = _proto(f"ntt_polymul_batch_{_w}", _st, c_void_p, _P, _P, _P,
                                     c_size_t, c_size_t)
    exec_fns["polymul_linear", _w] = _proto(f"ntt_polymul_linear_{_w}", _st, c_void_p, _P, _P,
                                            c_size_t, _P, c_size_t)
    exec_fns["cuda_forward", _w] = _proto(f"ntt_cuda_forward_{_w}", _st, c_void_p, _P, c_size_t,
                                          c_size_t, c_void_p)
    exec_fns["cuda_inverse", _w] = _proto(f"ntt_cuda_inverse_{_w}", _st, c_void_p, _P, c_size_t,
                                          c_size_t, c_void_p)
    exec_fns["cuda_pointwise", _w] = _proto(f"ntt_cuda_pointwise_{_w}", _st, c_void_p, _P, _P,
                                            _P, c_size_t, c_size_t, c_void_p)
    exec_fns["cuda_polymul", _w] = _proto(f"ntt_cuda_polymul_{_w}", _st, c_void_p, _P,
                                          c_size_t, _P, c_size_t, _P, c_size_t, c_size_t,
                                          c_size_t, c_void_p)
cuda_last_error = _proto("ntt_cuda_last_error", c_int, c_void_p)
# Why the calling thread's last call failed (0.2.0 libraries built before it
# have none: the messages then carry the status alone).
error_detail = (_proto("ntt_error_detail", c_char_p) if hasattr(lib, "ntt_error_detail")
                else (lambda: b""))


class CudaInfo(Structure):
    """ntt_cuda_info."""
    _fields_ = [("name", ctypes.c_char * 128), ("device", c_int), ("cc_major", c_int),
                ("cc_minor", c_int), ("sm_count", c_int), ("l2_bytes", c_size_t),
                ("global_mem_bytes", c_size_t), ("smem_per_block_optin", c_size_t),
                ("clock_khz", c_int), ("mem_clock_khz", c_int), ("mem_bus_bits", c_int),
                ("driver_version", c_int), ("runtime_version", c_int)]


cuda_get_info = _proto("ntt_cuda_get_info", _st, POINTER(CudaInfo))

polymul_mod_ex = _proto("ntt_polymul_mod_ex", _st, _P, _P, c_size_t, _P, c_size_t, c_uint64,
                        c_int, _P)
cache_clear = _proto("ntt_cache_clear", None)
# Big moduli and big naturals (include/ntt_bigmod.h, ntt_bigint.h); None in
# a libntt built before them.
bigmod_polymul = (_proto("ntt_bigmod_polymul", _st, _P, _P, c_size_t, _P, c_size_t, _P, c_size_t,
                         c_int) if hasattr(lib, "ntt_bigmod_polymul") else None)
mpn_mul = (_proto("ntt_mpn_mul", _st, _P, _P, c_size_t, _P, c_size_t, c_int, _P)
           if hasattr(lib, "ntt_mpn_mul") else None)

is_prime = _proto("ntt_is_prime", c_int, c_uint64)
primitive_root = _proto("ntt_primitive_root", _st, c_uint64, POINTER(c_uint64))
root_of_unity = _proto("ntt_root_of_unity", _st, c_uint64, c_uint64, POINTER(c_uint64))
find_prime = _proto("ntt_find_prime", _st, c_uint, c_uint, c_uint, POINTER(c_uint64))

# ---- include/ntt_rns.h (host forms) -----------------------------------------

class RnsParams(Structure):
    """ntt_rns_params."""
    _fields_ = [("n", c_size_t), ("q", _P), ("q_count", c_size_t), ("p", _P),
                ("p_count", c_size_t), ("dnum", c_size_t), ("backend", c_int),
                ("threads", c_int)]


def _rns_protos():
    """The RNS module's entry points, or None for a libntt built before it
    (ntt.rns then refuses to import; the rest of the package works)."""
    if not hasattr(lib, "ntt_rns_create"):
        return None
    z = c_size_t
    fns = {
        "create": _proto("ntt_rns_create", _st, POINTER(c_void_p), POINTER(RnsParams)),
        "destroy": _proto("ntt_rns_destroy", None, c_void_p),
        "n": _proto("ntt_rns_n", z, c_void_p),
        "q_count": _proto("ntt_rns_q_count", z, c_void_p),
        "p_count": _proto("ntt_rns_p_count", z, c_void_p),
        "dnum": _proto("ntt_rns_dnum", z, c_void_p),
        "alpha": _proto("ntt_rns_alpha", z, c_void_p),
        "digits": _proto("ntt_rns_digits", z, c_void_p, z),
        "backend": _proto("ntt_rns_backend", c_int, c_void_p),
        "threads": _proto("ntt_rns_threads", c_int, c_void_p),
        "primes": _proto("ntt_rns_primes", z, c_void_p, POINTER(POINTER(c_uint64))),
        "digit_range": _proto("ntt_rns_digit_range", _st, c_void_p, z, z, POINTER(z),
                              POINTER(z)),
        "forward": _proto("ntt_rns_forward", _st, c_void_p, z, _P, z, _P),
        "inverse": _proto("ntt_rns_inverse", _st, c_void_p, z, _P, z, _P),
        "fastbconv": _proto("ntt_rns_fastbconv", _st, c_void_p, z, _P, z, _P, _P, z, _P),
        "modup": _proto("ntt_rns_modup", _st, c_void_p, z, z, z, _P, z, _P, z),
        "moddown": _proto("ntt_rns_moddown", _st, c_void_p, z, z, _P, z, _P, z),
        "rescale": _proto("ntt_rns_rescale", _st, c_void_p, z, z, _P, z, _P, z),
        "ks_inner": _proto("ntt_rns_ks_inner", _st, c_void_p, z, z, _P, z, _P, z, _P, _P, z),
        "keyswitch": _proto("ntt_rns_keyswitch", _st, c_void_p, z, z, _P, z, _P, z, _P, _P,
                            z),
        "key_check": _proto("ntt_rns_key_check", _st, c_void_p, z, _P, z),
    }
    if hasattr(lib, "ntt_rns_root"):
        fns["root"] = _proto("ntt_rns_root", _st, c_void_p, z, POINTER(c_uint64))
    # The device-pointer forms ntt_rns_cuda_* (the host arguments plus a
    # stream, on a context made with NTT_BACKEND_CUDA) are declared here
    # once the library has them.
    return fns


rns_fns = _rns_protos()
RNS_MAX_LIMBS = 256
RNS_PRIME_BITS = 61


FLAG_NEGACYCLIC = 1
FLAG_NATURAL_ORDER = 2
U32 = 32
BACKEND_AUTO = 0
BACKEND_SCALAR = 1
BACKEND_OPENMP = 3
BACKEND_CUDA = 4
BACKEND_COUNT = 6


# ---- ntt_plan_options -------------------------------------------------------

class PlanOptions(Structure):
    """ntt_plan_options of include/ntt.h (libntt 0.2 and later): the
    planner's fields (mode, time_limit, work) at the end, zero = ESTIMATE,
    the library's fixed rules."""
    _fields_ = [("modmul", c_int), ("flags", c_uint), ("threads", c_int), ("batch", c_size_t),
                ("mode", c_int), ("time_limit", ctypes.c_double), ("work", c_int)]


def _check_version():
    """libntt before 0.2 had two more fields in ntt_plan_options, which
    this package would fill wrongly: refuse it rather than guess."""
    fn = getattr(lib, "ntt_version", None)
    if fn is None:
        raise ImportError(f"ntt: {path} is libntt older than 0.2 (no ntt_version); "
                          "this package needs 0.2 or later")
    fn.restype = c_uint
    fn.argtypes = []
    v = fn()
    if v < 200:
        raise ImportError(f"ntt: {path} is libntt {v // 10000}.{v // 100 % 100}.{v % 100}; "
                          "this package needs 0.2 or later")
    return v


version_code = _check_version()


def make_options(modmul=0, flags=0, threads=0, batch=0):
    """An options struct in the loaded library's layout; keep the returned
    object alive while its address is in use."""
    return PlanOptions(modmul=modmul, flags=flags, threads=threads, batch=batch)


"""Backend and modular-multiplication names, parsed by the library itself."""

import ctypes

from . import _lib
from ._errors import InvalidArgumentError, Status, check

_backend_codes = {}
_modmul_codes = {}


def _parse(name, what, parse, cache):
    code = cache.get(name)
    if code is not None:
        return code
    if not isinstance(name, str):
        raise InvalidArgumentError(Status.EINVAL, f"{what}: expected a name (str), got "
                                   f"{type(name).__name__}")
    out = ctypes.c_int()
    if parse(name.encode(), ctypes.byref(out)) != 0:
        raise InvalidArgumentError(Status.EINVAL, f"unknown {what} {name!r}")
    cache[name] = out.value
    return out.value


def backend_code(name):
    return _parse(name, "backend", _lib.backend_from_name, _backend_codes)


def modmul_code(name):
    return _parse(name, "modmul", _lib.modmul_from_name, _modmul_codes)


def backend_name(code):
    return _lib.backend_name(code).decode()


def modmul_name(code):
    return _lib.modmul_name(code).decode()


def backends():
    """Names of the backends built into the loaded library and usable on
    this machine, in the library's order ("auto" not included)."""
    return [backend_name(c) for c in range(1, _lib.BACKEND_COUNT) if _lib.backend_available(c)]


def backend_available(name):
    """True if the named backend is built in and usable here ("auto" always
    is).  Unknown names raise InvalidArgumentError."""
    return bool(_lib.backend_available(backend_code(name)))


def auto_backend():
    """The backend that "auto" resolves to now (the environment variable
    NTT_BACKEND overrides the library's choice); "auto" itself while
    NTT_BACKEND names no backend, when every call on "auto" fails."""
    return backend_name(_lib.backend_resolve_auto())


def cuda_info():
    """The GPU as the CUDA backend sees it, as a dict (name, device,
    cc_major, cc_minor, sm_count, l2_bytes, global_mem_bytes, ...).
    Raises UnsupportedError without CUDA or without a GPU."""
    info = _lib.CudaInfo()
    check(_lib.cuda_get_info(ctypes.byref(info)), "ntt_cuda_get_info")
    out = {name: getattr(info, name) for name, _ in _lib.CudaInfo._fields_}
    out["name"] = info.name.decode(errors="replace")
    return out

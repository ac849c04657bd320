"""Status codes and the exceptions that carry them.

Every failure, whether the C library reported it or the package's own
checks caught it before calling the library, raises an ntt.Error whose
`status` is the ntt_status the library gives for that kind of input.
"""

import enum

from . import _lib


class Status(enum.IntEnum):
    """ntt_status (include/ntt.h)."""
    OK = 0
    EINVAL = 1
    EMODULUS = 2
    ERANGE = 3
    ENOMEM = 4
    EUNSUPPORTED = 5
    EBACKEND = 6
    EIO = 7
    EFORMAT = 8
    EMACHINE = 9


def status_string(status):
    """The library's English description of a status code."""
    return _lib.status_string(int(status)).decode()


class Error(Exception):
    """A libntt failure.  `status` is the Status, `status_string` the
    library's description of it."""

    def __init__(self, status, message):
        try:
            status = Status(status)
            name = f"NTT_{status.name}"
        except ValueError:
            name = f"status {int(status)}"
        self.status = status
        self.status_string = status_string(status)
        super().__init__(f"{message} [{name}: {self.status_string}]")


class InvalidArgumentError(Error, ValueError):
    """NTT_EINVAL: a size, length, shape, layout or option the call does not
    accept."""


class DTypeError(InvalidArgumentError, TypeError):
    """NTT_EINVAL for an array whose element type does not match the plan's
    width (uint32 for width 32, uint64 for width 64), or a sequence holding
    something other than integers."""


class ModulusError(Error, ValueError):
    """NTT_EMODULUS: the modulus is not prime, outside the width's range, or
    has no root of unity of the order the plan needs."""


class RangeError(Error, ValueError):
    """NTT_ERANGE: an input coefficient is not in [0, p)."""


class OutOfMemoryError(Error, MemoryError):
    """NTT_ENOMEM: host or device memory exhausted."""


class UnsupportedError(Error):
    """NTT_EUNSUPPORTED: the backend is not built or not usable here, or the
    call needs another backend (device arrays need a CUDA plan)."""


class BackendError(Error):
    """NTT_EBACKEND: the backend failed at run time.  `cuda_error` is the
    cudaError_t behind it (0 if none was recorded)."""

    def __init__(self, status, message, cuda_error=0):
        self.cuda_error = cuda_error
        if cuda_error:
            message = f"{message} (cudaError_t {cuda_error})"
        super().__init__(status, message)


_CLASSES = {
    Status.EINVAL: InvalidArgumentError,
    Status.EMODULUS: ModulusError,
    Status.ERANGE: RangeError,
    Status.ENOMEM: OutOfMemoryError,
    Status.EUNSUPPORTED: UnsupportedError,
    Status.EBACKEND: BackendError,
}


def error(status, message):
    """The exception for a status code."""
    return _CLASSES.get(status, Error)(status, message)


def check(status, function, plan=None):
    """Raises the exception for a non-zero status returned by `function`,
    with the library's detail (ntt_error_detail) when it gives one: call it
    right after the call, on the same thread."""
    if status == 0:
        return
    # Read on the thread that made the call, before any other library call.
    detail = _lib.error_detail().decode(errors="replace")
    message = f"{function} failed: {detail}" if detail else f"{function} failed"
    if status == Status.EBACKEND:
        raise BackendError(status, message, _lib.cuda_last_error(plan))
    raise error(status, message)

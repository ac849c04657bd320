"""Operands: numpy arrays, integer sequences and CUDA device arrays, checked
before any call reaches the library (except the range of polymul_mod's
coefficients, which the library checks before writing anything).

Every check raises the exception of the status the library would return
for the same input (dtype, layout, shape: NTT_EINVAL; a coefficient >= p:
NTT_ERANGE), with a message that names the operand and the offending
index, so that nothing the caller owns is touched by a call that fails.
"""

import math
import operator

import numpy as np

from ._errors import DTypeError, InvalidArgumentError, RangeError, Status

EINVAL = Status.EINVAL
DTYPES = {32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}
TYPESTR = {32: "u4", 64: "u8"}


class Operand:
    """One array argument of a call: its address, shape and element count,
    whether it lives on a CUDA device, and (device arrays) the stream its
    producer named."""
    __slots__ = ("obj", "ptr", "shape", "size", "itemsize", "device", "stream", "writable")

    def __init__(self, obj, ptr, shape, size, itemsize, device, stream, writable):
        self.obj = obj
        self.ptr = ptr
        self.shape = shape
        self.size = size
        self.itemsize = itemsize
        self.device = device
        self.stream = stream
        self.writable = writable

    def overlaps(self, other):
        if self.size == 0 or other.size == 0:
            return False
        return (self.ptr < other.ptr + other.size * other.itemsize and
                other.ptr < self.ptr + self.size * self.itemsize)

    def same_memory(self, other):
        return self.ptr == other.ptr and self.shape == other.shape


def is_device(x):
    return hasattr(x, "__cuda_array_interface__")


def _host(arr):
    return Operand(arr, arr.ctypes.data, arr.shape, arr.size, arr.itemsize, False, None,
                   arr.flags.writeable)


def host_operand(x, name, width, convert):
    """x as an Operand over a C-contiguous ndarray of the width's dtype.
    ndarrays are used as they are, never copied; other sequences of
    integers are converted (a new array) when `convert`."""
    dtype = DTYPES[width]
    if isinstance(x, np.ndarray):
        if x.dtype != dtype:
            raise DTypeError(EINVAL, f"{name}: dtype {x.dtype}, expected {dtype} "
                             f"(width {width})")
        if not x.flags.c_contiguous:
            raise InvalidArgumentError(EINVAL, f"{name}: the array is not C-contiguous "
                                       f"(strides {x.strides}); pass "
                                       f"numpy.ascontiguousarray({name})")
        if not x.flags.aligned:
            raise InvalidArgumentError(EINVAL, f"{name}: the array's data is not aligned "
                                       f"to {dtype.itemsize} bytes")
        return _host(x)
    if not convert:
        raise DTypeError(EINVAL, f"{name}: expected a numpy {dtype} array, got "
                         f"{type(x).__name__}")
    return _host(from_sequence(x, name, width))


def from_sequence(x, name, width):
    """A new array of the width's dtype from a (nested) sequence of ints.
    Values must fit the dtype; the range [0, p) is checked later, with the
    arrays."""
    try:
        obj = np.array(x, dtype=object)
    except (TypeError, ValueError) as e:
        raise DTypeError(EINVAL, f"{name}: not a rectangular sequence of integers ({e})") \
            from None
    if obj.ndim == 0:
        raise DTypeError(EINVAL, f"{name}: expected an array or a sequence of integers, got "
                         f"{type(x).__name__}")
    flat = obj.reshape(-1)
    for i, v in enumerate(flat):
        try:
            flat[i] = operator.index(v)
        except TypeError:
            where = index_text(i, obj.shape)
            raise DTypeError(EINVAL, f"{name}{where} = {v!r} is not an integer") from None
        if not 0 <= flat[i] < 1 << width:
            where = index_text(i, obj.shape)
            raise RangeError(Status.ERANGE, f"{name}{where} = {v} is not a coefficient "
                             f"(coefficients lie in [0, p))")
    return obj.astype(DTYPES[width])


def device_operand(x, name, width, stream):
    """An Operand over a CUDA array (anything with __cuda_array_interface__):
    checked for element type, C-contiguity and mask; never copied."""
    cai = x.__cuda_array_interface__
    typestr = cai["typestr"]
    shape = tuple(cai["shape"])
    if typestr[1:] != TYPESTR[width] or typestr[0] not in "<|=":
        raise DTypeError(EINVAL, f"{name}: device array of type {typestr}, expected "
                         f"<{TYPESTR[width]} ({DTYPES[width]}, width {width})")
    itemsize = width // 8
    strides = cai.get("strides")
    if strides is not None and tuple(strides) != c_strides(shape, itemsize):
        raise InvalidArgumentError(EINVAL, f"{name}: the device array is not C-contiguous "
                                   f"(strides {tuple(strides)})")
    if cai.get("mask") is not None:
        raise InvalidArgumentError(EINVAL, f"{name}: masked device arrays are not supported")
    ptr, readonly = cai["data"]
    return Operand(x, ptr, shape, math.prod(shape), itemsize, True,
                   cai.get("stream") if stream is None else stream, not readonly)


def c_strides(shape, itemsize):
    strides, step = [], itemsize
    for dim in reversed(shape):
        strides.append(step)
        step *= dim
    return tuple(reversed(strides))


def index_text(flat, shape):
    return "[" + ", ".join(str(int(i)) for i in np.unravel_index(flat, shape)) + "]"


def check_range(op, name, bounds, row):
    """Raises RangeError for the first coefficient of op (a host Operand)
    that is not below its item's modulus: item i (a run of `row` elements)
    has bound bounds[i % len(bounds)]."""
    arr = op.obj
    if arr.size == 0:
        return
    if len(bounds) == 1:
        p = bounds[0]
        if arr.max() < p:
            return
        bad = int(np.flatnonzero(arr.reshape(-1) >= p)[0])
    else:
        rows = arr.reshape(-1, row)
        per_row = np.resize(bounds, rows.shape[0])
        over = rows.max(axis=1) >= per_row
        if not over.any():
            return
        i = int(np.flatnonzero(over)[0])
        p = per_row[i]
        bad = i * row + int(np.flatnonzero(rows[i] >= p)[0])
    value = arr.reshape(-1)[bad]
    raise RangeError(Status.ERANGE, f"{name}{index_text(bad, arr.shape)} = {value} is not "
                     f"below its modulus {p} (coefficients lie in [0, p))")


def check_out_alias(out, name, inputs, exact_ok):
    """`out` may be one of `inputs` exactly when exact_ok, else it must not
    overlap any of them."""
    for other, other_name in inputs:
        if out.overlaps(other) and not (exact_ok and out.same_memory(other)):
            rule = "be exactly" if exact_ok else "overlap"
            hint = f"may {rule} {other_name} or not overlap it" if exact_ok else \
                f"must not {rule} {other_name}"
            raise InvalidArgumentError(EINVAL, f"{name} {hint}")


def stream_handle(stream):
    """A cudaStream_t value from an int or a stream object (CuPy .ptr,
    PyTorch .cuda_stream, the __cuda_stream__ protocol, Numba .handle).
    None (no stream named) is the legacy default stream, 0."""
    if stream is None:
        return 0
    if isinstance(stream, int):
        v = stream
    elif hasattr(stream, "__cuda_stream__"):
        v = stream.__cuda_stream__()[1]
    elif hasattr(stream, "cuda_stream"):
        v = stream.cuda_stream
    elif hasattr(stream, "ptr"):
        v = stream.ptr
    elif hasattr(stream, "handle"):
        v = getattr(stream.handle, "value", stream.handle) or 0
    else:
        raise InvalidArgumentError(EINVAL, f"stream: cannot read a CUDA stream from "
                                   f"{type(stream).__name__}")
    v = operator.index(v)
    if not 0 <= v < 1 << 64:
        raise InvalidArgumentError(EINVAL, f"stream: {v} is not a stream handle")
    return v

"""The CUDA backend from Python: device arrays through the ntt_cuda_* calls on
their streams, without copies, checked against the CPU backends; host
arrays on CUDA plans.

Runs on a GPU with CuPy (and PyTorch, where installed), or, where the
loaded libntt is the CPU stand-in of the CUDA runtime (tests/cuda_emu,
whose device memory is host memory), on numpy arrays presented through
__cuda_array_interface__, so that CI exercises the device path.  Skipped
otherwise."""

import numpy as np
import pytest

import ntt
from reference import distinct_ntt_primes, fold, kronecker

pytestmark = pytest.mark.gpu

BITS = {32: 30, 64: 62}
DTYPES = {32: np.uint32, 64: np.uint64}


class EmulatedArray:
    """A numpy array presented as a device array, for the CPU stand-in."""

    def __init__(self, arr, stream=None):
        self.host = arr
        self.stream = stream

    @property
    def __cuda_array_interface__(self):
        a = self.host
        return {"shape": a.shape, "typestr": a.dtype.str, "version": 3,
                "data": (a.ctypes.data, not a.flags.writeable),
                "strides": None if a.flags.c_contiguous else a.strides,
                "stream": self.stream}

    def __getitem__(self, index):
        return EmulatedArray(self.host[index], self.stream)


class EmulatedStream:
    ptr = 0x5150  # the stand-in ignores streams; any handle will do

    def synchronize(self):
        pass


class Emulated:
    name = "emulated"
    max_log = 10  # every kernel thread runs in turn on the CPU

    def to_device(self, a):
        return EmulatedArray(np.array(a))

    def to_host(self, d):
        return d.host.copy()

    def empty_like(self, d):
        return EmulatedArray(np.empty_like(d.host))

    def zeros(self, shape, dtype):
        return EmulatedArray(np.zeros(shape, dtype))

    def ptr(self, d):
        return d.host.ctypes.data

    def stream(self):
        return EmulatedStream()

    def in_stream(self, d, stream):
        """d as its producer would present it while `stream` is current."""
        return EmulatedArray(d.host, stream.ptr)

    def sync(self):
        pass


class Cupy:
    name = "cupy"
    max_log = 17

    def __init__(self, cupy):
        self.cp = cupy

    def to_device(self, a):
        return self.cp.asarray(a)

    def to_host(self, d):
        return self.cp.asnumpy(d)

    def empty_like(self, d):
        return self.cp.empty_like(d)

    def zeros(self, shape, dtype):
        return self.cp.zeros(shape, dtype)

    def ptr(self, d):
        return d.data.ptr

    def stream(self):
        return self.cp.cuda.Stream(non_blocking=True)

    def in_stream(self, d, stream):
        return d  # the stream is named by the interface while it is current

    def sync(self):
        self.cp.cuda.get_current_stream().synchronize()


def _device():
    if not ntt.backend_available("cuda"):
        return None, f"{ntt.library_path()} has no usable CUDA backend"
    if ntt.cuda_info()["name"] == "CPU emulation":
        return Emulated(), None
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            return Cupy(cupy), None
    except ImportError:
        return None, "CuPy is not installed"
    except Exception as e:  # CUDARuntimeError and the like: no usable device
        return None, f"CuPy finds no device ({e})"
    return None, "no CUDA device"


DEVICE, WHY_NOT = _device()
if DEVICE is None:
    pytest.skip(WHY_NOT, allow_module_level=True)


def rns_case(rng, width, log_n, count):
    n = 1 << log_n
    return n, distinct_ntt_primes(count, BITS[width], log_n + 1, rng)


def host_coeffs(rng, shape, moduli, width):
    rows = int(np.prod(shape[:-1]))
    bounds = np.resize(np.array(moduli, np.uint64), rows).reshape(shape[:-1] + (1,))
    return (rng.integers(0, 1 << 62, size=shape, dtype=np.uint64) % bounds).astype(
        DTYPES[width])


@pytest.mark.parametrize("width", [32, 64])
@pytest.mark.parametrize("log_n", [4, 10, 17])
def test_batched_negacyclic_transforms(rng, width, log_n):
    if log_n > DEVICE.max_log:
        pytest.skip(f"2^{log_n} is too large for {DEVICE.name} arrays")
    dev = DEVICE
    n, q = rns_case(rng, width, log_n, 3)
    a = host_coeffs(rng, (2, 3, n), q, width)
    b = host_coeffs(rng, (2, 3, n), q, width)
    with ntt.Plan(n, q, width=width, negacyclic=True, backend="cuda") as gpu, \
            ntt.Plan(n, q, width=width, negacyclic=True, backend="scalar") as cpu:
        da, db = dev.to_device(a), dev.to_device(b)
        ptr = dev.ptr(da)
        assert gpu.forward(da, inplace=True) is da and dev.ptr(da) == ptr
        assert gpu.forward(db, out=db) is db
        dev.sync()
        expected_a = cpu.forward(a)
        assert np.array_equal(dev.to_host(da), expected_a)

        dc = dev.empty_like(da)
        assert gpu.pointwise(da, db, out=dc) is dc
        dev.sync()
        assert np.array_equal(dev.to_host(dc), cpu.pointwise(expected_a, cpu.forward(b)))
        gpu.inverse(dc, inplace=True)
        product = cpu.polymul(a, b)
        dev.sync()
        assert np.array_equal(dev.to_host(dc), product)

        gpu.inverse(da, inplace=True)
        dev.sync()
        assert np.array_equal(dev.to_host(da), a)
        db = dev.to_device(b)
        assert gpu.polymul(da, db, out=db) is db
        dev.sync()
        assert np.array_equal(dev.to_host(db), product)
        if log_n <= 10:
            host = dev.to_host(db)
            for k, i in np.ndindex(2, 3):
                assert host[k, i].tolist() == fold(
                    kronecker(a[k, i].tolist(), b[k, i].tolist(), q[i]), n, q[i], True)


@pytest.mark.parametrize("width", [32, 64])
def test_polymul_linear_on_device(rng, width):
    dev = DEVICE
    n, (p,) = rns_case(rng, width, 10, 1)
    for la, lb in ((1, 1), (300, 700), (512, 513)):
        a = host_coeffs(rng, (la,), [p], width)
        b = host_coeffs(rng, (lb,), [p], width)
        with ntt.Plan(n, p, width=width, backend="cuda") as plan:
            dc = dev.zeros(la + lb - 1, DTYPES[width])
            assert plan.polymul_linear(dev.to_device(a), dev.to_device(b), out=dc) is dc
            dev.sync()
            assert dev.to_host(dc).tolist() == kronecker(a.tolist(), b.tolist(), p)


def test_streams_explicit_and_from_the_interface(rng):
    dev = DEVICE
    n, q = rns_case(rng, 64, min(14, dev.max_log), 2)
    a = host_coeffs(rng, (4, n), q, 64)
    with ntt.Plan(n, q, negacyclic=True, backend="cuda") as gpu, \
            ntt.Plan(n, q, negacyclic=True, backend="scalar") as cpu:
        expected = cpu.forward(a)
        stream = dev.stream()
        if dev.name == "cupy":
            with stream:
                d = dev.to_device(a)  # enqueued on `stream`; its interface names it
                assert d.__cuda_array_interface__.get("stream") in (None, stream.ptr)
                gpu.forward(d, inplace=True)
        else:
            d = dev.in_stream(dev.to_device(a), stream)
            gpu.forward(d, inplace=True)
        stream.synchronize()
        assert np.array_equal(dev.to_host(d), expected)

        other = dev.stream()
        d2 = dev.to_device(a)
        dev.sync()
        for s in (other, other.ptr):
            gpu.forward(d2, inplace=True, stream=s)
            other.synchronize()
            gpu.inverse(d2, inplace=True, stream=s)
            other.synchronize()
        assert np.array_equal(dev.to_host(d2), a)


def host_batch_matches(rng, count, batch):
    n, q = rns_case(rng, 64, min(15, DEVICE.max_log), count)
    a = host_coeffs(rng, (6, n), q, 64)
    b = host_coeffs(rng, (6, n), q, 64)
    with ntt.Plan(n, q, negacyclic=True, backend="cuda", batch=batch) as gpu, \
            ntt.Plan(n, q, negacyclic=True, backend="scalar") as cpu:
        return [np.array_equal(gpu.polymul(a, b), cpu.polymul(a, b)),
                np.array_equal(gpu.forward(a), cpu.forward(a)),
                np.array_equal(gpu.pointwise(a, b), cpu.pointwise(a, b))]


def test_host_arrays_on_a_cuda_plan(rng):
    assert host_batch_matches(rng, count=1, batch=0) == [True] * 3
    # RNS batches whose chunks (`batch` items at a time) start at a
    # multiple of the moduli count
    assert host_batch_matches(rng, count=3, batch=3) == [True] * 3
    p = 2 ** 61 - 1
    size = 50000 if DEVICE.name == "cupy" else 300
    x = rng.integers(0, p, size=size, dtype=np.uint64)
    y = rng.integers(0, p, size=size + 77, dtype=np.uint64)
    assert np.array_equal(ntt.polymul_mod(x, y, p, "cuda"), ntt.polymul_mod(x, y, p, "scalar"))


def test_rns_host_batches_on_a_cuda_plan(rng):
    assert host_batch_matches(rng, count=3, batch=0) == [True] * 3


def test_device_argument_errors(rng):
    dev = DEVICE
    n, (p,) = rns_case(rng, 64, 8, 1)
    with ntt.Plan(n, p, backend="cuda") as gpu:
        d = dev.zeros((4, n), np.uint64)
        with pytest.raises(ntt.DTypeError):
            gpu.forward(dev.zeros(n, np.int64), inplace=True)
        with pytest.raises(ntt.DTypeError):
            gpu.forward(dev.zeros(n, np.uint32), inplace=True)
        with pytest.raises(ntt.InvalidArgumentError, match="C-contiguous"):
            gpu.forward(dev.zeros((4, 2 * n), np.uint64)[:, ::2], inplace=True)
        with pytest.raises(ntt.InvalidArgumentError, match="in place"):
            gpu.forward(d, out=dev.zeros((4, n), np.uint64))
        with pytest.raises(ntt.InvalidArgumentError, match="out="):
            gpu.forward(d)
        with pytest.raises(ntt.InvalidArgumentError, match="out="):
            gpu.polymul(d, d)
        with pytest.raises(ntt.InvalidArgumentError, match="expected a device array"):
            gpu.polymul(d, np.zeros((4, n), np.uint64), out=d)
        with pytest.raises(ntt.InvalidArgumentError, match="expected a host array"):
            gpu.polymul(np.zeros((4, n), np.uint64), d)
        with pytest.raises(ntt.InvalidArgumentError, match="shape"):
            gpu.forward(dev.zeros(n // 2, np.uint64), inplace=True)
        with pytest.raises(ntt.InvalidArgumentError, match="may be exactly"):
            wide = dev.zeros(2 * n, np.uint64)
            gpu.polymul(wide[:n], wide[n:], out=wide[n // 2:n // 2 + n])
    with ntt.Plan(n, p, backend="scalar") as cpu:
        with pytest.raises(ntt.UnsupportedError, match="backend='cuda'"):
            cpu.forward(dev.zeros(n, np.uint64), inplace=True)


def test_pytorch_tensors(rng):
    if DEVICE.name != "cupy":
        pytest.skip("needs a GPU")
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    n, q = rns_case(rng, 64, 13, 2)
    a = host_coeffs(rng, (4, n), q, 64)
    b = host_coeffs(rng, (4, n), q, 64)
    with ntt.Plan(n, q, negacyclic=True, backend="cuda") as gpu, \
            ntt.Plan(n, q, negacyclic=True, backend="scalar") as cpu:
        ta = torch.from_numpy(a).cuda()
        tb = torch.from_numpy(b).cuda()
        out = torch.empty_like(ta)
        stream = torch.cuda.current_stream()
        assert gpu.polymul(ta, tb, out=out, stream=stream) is out
        stream.synchronize()
        assert np.array_equal(out.cpu().numpy(), cpu.polymul(a, b))
        gpu.forward(ta, inplace=True)
        torch.cuda.synchronize()
        assert np.array_equal(ta.cpu().numpy(), cpu.forward(a))


def test_cuda_info():
    info = ntt.cuda_info()
    assert info["name"] and info["sm_count"] >= 1 and info["global_mem_bytes"] > 0

"""Bad input raises the documented exception, carrying the library's status,
and leaves every array the caller owns as it was."""

import numpy as np
import pytest

import ntt

P = 998244353  # 119 * 2^23 + 1
N = 16


@pytest.fixture
def plan():
    with ntt.Plan(N, P, negacyclic=True) as p:
        yield p


def operands(rng, shape=N, dtype=np.uint64):
    return rng.integers(0, P, size=shape, dtype=np.uint64).astype(dtype)


def test_exception_hierarchy_and_status():
    assert issubclass(ntt.InvalidArgumentError, ntt.Error)
    assert issubclass(ntt.InvalidArgumentError, ValueError)
    assert issubclass(ntt.DTypeError, ntt.InvalidArgumentError)
    assert issubclass(ntt.DTypeError, TypeError)
    assert issubclass(ntt.ModulusError, ValueError)
    assert issubclass(ntt.RangeError, ValueError)
    assert issubclass(ntt.OutOfMemoryError, MemoryError)
    assert issubclass(ntt.UnsupportedError, ntt.Error)
    assert issubclass(ntt.BackendError, ntt.Error)
    for status in ntt.Status:
        assert ntt.status_string(status)
    with pytest.raises(ntt.RangeError) as info:
        ntt.polymul_mod([5], [1, 2], 5)
    e = info.value
    assert e.status == ntt.Status.ERANGE
    assert e.status_string == ntt.status_string(ntt.Status.ERANGE)
    assert "NTT_ERANGE" in str(e) and "a[0] = 5" in str(e)


def test_the_library_status_reaches_python(plan, monkeypatch):
    """Errors the package leaves to the library keep the library's status:
    its own range check is relied on when the Python one is skipped."""
    from ntt import _plan
    monkeypatch.setattr(_plan, "check_range", lambda *args: None)
    a = np.full(N, P, np.uint64)
    with pytest.raises(ntt.RangeError) as info:
        plan.forward(a, inplace=True)
    assert info.value.status == ntt.Status.ERANGE and "forward" in str(info.value)
    assert (a == P).all()


@pytest.mark.parametrize("dtype", [np.int64, np.uint32, np.float64, np.int32])
def test_wrong_dtype(rng, plan, dtype):
    a = operands(rng).astype(dtype)
    b = operands(rng)
    for call in (lambda: plan.forward(a), lambda: plan.polymul(a, b),
                 lambda: plan.polymul(b, a), lambda: plan.pointwise(b, a),
                 lambda: plan.forward(b, out=np.empty(N, dtype)),
                 lambda: ntt.polymul_mod(a, b, P)):
        with pytest.raises(ntt.DTypeError, match="dtype") as info:
            call()
        assert info.value.status == ntt.Status.EINVAL
        assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)


def test_wrong_width(rng):
    with ntt.Plan(N, P, width=32) as p32:
        with pytest.raises(ntt.DTypeError, match="uint32"):
            p32.forward(operands(rng, dtype=np.uint64))
        assert p32.forward(operands(rng, dtype=np.uint32)).dtype == np.uint32
    with pytest.raises(ntt.InvalidArgumentError, match="width"):
        ntt.Plan(N, P, width=48)
    with pytest.raises(ntt.ModulusError, match="2\\^30"):
        ntt.Plan(N, 4611685941117976577, width=32)


def test_non_contiguous(rng, plan):
    wide = operands(rng, (2, 2 * N))
    for a in (wide[0, ::2], wide[:, :N], np.asfortranarray(operands(rng, (N, N)))):
        with pytest.raises(ntt.InvalidArgumentError, match="C-contiguous") as info:
            plan.forward(a)
        assert info.value.status == ntt.Status.EINVAL
    with pytest.raises(ntt.InvalidArgumentError, match="C-contiguous"):
        ntt.polymul_mod(wide[0, ::2], [1], P)
    with pytest.raises(ntt.InvalidArgumentError, match="C-contiguous"):
        plan.polymul(operands(rng), operands(rng), out=wide[0, ::2])


def test_coefficient_not_below_p_changes_nothing(rng, plan):
    a = operands(rng, (3, N))
    b = operands(rng, (3, N))
    a[2, 5] = P
    keep_a, keep_b = a.copy(), b.copy()
    out = np.zeros((3, N), np.uint64)
    for call in (lambda: plan.forward(a, inplace=True), lambda: plan.forward(a, out=out),
                 lambda: plan.inverse(a, inplace=True), lambda: plan.polymul(a, b, out=out),
                 lambda: plan.polymul(b, a, inplace=True), lambda: plan.pointwise(b, a, out=b)):
        with pytest.raises(ntt.RangeError, match=f"a\\[2, 5\\] = {P}|b\\[2, 5\\] = {P}") as info:
            call()
        assert info.value.status == ntt.Status.ERANGE
    assert a.tolist() == keep_a.tolist() and b.tolist() == keep_b.tolist()
    assert not out.any()
    with pytest.raises(ntt.RangeError):
        ntt.polymul_mod([1, 2 ** 63 - 1], [1], 2 ** 63 - 25)
    with pytest.raises(ntt.RangeError):
        ntt.polymul_mod([1, -1], [1], 7)
    with pytest.raises(ntt.RangeError):
        ntt.polymul_mod([1, 2 ** 64], [1], 7)


def test_rns_range_is_per_item(rng):
    q = [7681, 12289]  # 2^9 | q-1 for both
    with ntt.Plan(256, q, width=32) as plan:
        a = np.zeros((4, 256), np.uint32)
        a[2, 3] = 7681  # row 2 uses 7681: out of range
        a[1, 3] = 7681  # row 1 uses 12289: fine
        with pytest.raises(ntt.RangeError, match=r"a\[2, 3\] = 7681 is not below its modulus 7681"):
            plan.forward(a)
        a[2, 3] = 0
        plan.forward(a)


def test_bad_moduli():
    with pytest.raises(ntt.ModulusError, match="not prime") as info:
        ntt.Plan(N, 998244351)
    assert info.value.status == ntt.Status.EMODULUS
    with pytest.raises(ntt.ModulusError, match="needs 32"):
        ntt.Plan(N, 113, negacyclic=True)  # 113 - 1 = 7 * 2^4: 16 | p-1, 32 does not
    ntt.Plan(N, 113).close()
    with pytest.raises(ntt.ModulusError):
        ntt.Plan(N, [P, 15])
    with pytest.raises(ntt.ModulusError):
        ntt.Plan(N, -P)
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.Plan(N, [])
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.Plan(N, "998244353")
    with pytest.raises(ntt.ModulusError):
        ntt.primitive_root(91)
    with pytest.raises(ntt.ModulusError):
        ntt.root_of_unity(97, 64)  # 64 does not divide 96
    for p in (0, 1, -3):
        with pytest.raises(ntt.InvalidArgumentError, match="p >= 2"):
            ntt.polymul_mod([0], [0], p)


def test_bad_sizes_and_options():
    for n in (0, 1, 3, 12, 1 << 31):
        with pytest.raises(ntt.InvalidArgumentError, match="power of two"):
            ntt.Plan(n, P)
    with pytest.raises(ntt.InvalidArgumentError, match="unknown backend"):
        ntt.Plan(N, P, backend="tpu")
    with pytest.raises(ntt.InvalidArgumentError, match="unknown modmul"):
        ntt.Plan(N, P, modmul="fast")
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.Plan(N, P, threads=-1)
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.Plan(2.0, P)
    with pytest.raises(ntt.InvalidArgumentError, match="unknown backend"):
        ntt.backend_available("gpu")


def test_mismatched_shapes_and_lengths(rng, plan):
    a = operands(rng)
    with pytest.raises(ntt.InvalidArgumentError, match="shape"):
        plan.forward(operands(rng, N // 2))
    with pytest.raises(ntt.InvalidArgumentError, match="shape"):
        plan.forward(np.zeros((), np.uint64))
    with pytest.raises(ntt.InvalidArgumentError, match="differ in shape"):
        plan.polymul(a, operands(rng, (1, N)))
    with pytest.raises(ntt.InvalidArgumentError, match="out: shape"):
        plan.polymul(a, a, out=np.empty(2 * N, np.uint64))
    with pytest.raises(ntt.InvalidArgumentError, match="exceeds"):
        plan.polymul_linear(operands(rng, 9), operands(rng, 9))
    with pytest.raises(ntt.InvalidArgumentError, match="non-empty 1-D"):
        plan.polymul_linear(operands(rng, 0), operands(rng, 3))
    with pytest.raises(ntt.InvalidArgumentError, match="non-empty 1-D"):
        plan.polymul_linear(operands(rng, (2, 3)), operands(rng, 3))
    with pytest.raises(ntt.InvalidArgumentError, match="non-empty 1-D"):
        ntt.polymul_mod([], [1], P)
    with pytest.raises(ntt.InvalidArgumentError, match="out: shape"):
        ntt.polymul_mod([1, 2], [3, 4], P, out=np.empty(4, np.uint64))
    with pytest.raises(ntt.DTypeError, match="not an integer"):
        ntt.polymul_mod([[1, 2], [3]], [1], P)
    with pytest.raises(ntt.DTypeError, match="not an integer"):
        ntt.polymul_mod([1, 2.5], [1], P)
    with pytest.raises(ntt.DTypeError):
        plan.forward(7)


def test_aliasing_rules(rng, plan):
    buf = operands(rng, 3 * N)
    a, b = buf[:N], buf[N:2 * N]
    with pytest.raises(ntt.InvalidArgumentError, match="may be exactly a or not overlap"):
        plan.polymul(a, b, out=buf[N // 2:N // 2 + N])
    with pytest.raises(ntt.InvalidArgumentError, match="may be exactly a"):
        plan.forward(a, out=buf[1:N + 1])
    c = np.zeros(2 * N, np.uint64)
    with pytest.raises(ntt.InvalidArgumentError, match="must not overlap a"):
        plan.polymul_linear(c[:4], c[4:8], out=c[:7])
    with pytest.raises(ntt.InvalidArgumentError, match="must not overlap b"):
        ntt.polymul_mod(c[:4], c[4:8], P, out=c[4:11])
    with pytest.raises(ntt.InvalidArgumentError, match="not both"):
        plan.forward(a, out=b, inplace=True)


def test_read_only_and_in_place_needs_an_array(rng, plan):
    a = operands(rng)
    a.setflags(write=False)
    assert plan.forward(a).shape == (N,)  # read-only input, out of place: fine
    with pytest.raises(ntt.InvalidArgumentError, match="read-only"):
        plan.forward(a, inplace=True)
    with pytest.raises(ntt.InvalidArgumentError, match="read-only"):
        plan.polymul(operands(rng), operands(rng), out=a)
    with pytest.raises(ntt.DTypeError, match="numpy"):
        plan.forward(a.tolist(), inplace=True)


def test_host_calls_reject_stream_and_device_needs_cuda_plan(rng, plan):
    with pytest.raises(ntt.InvalidArgumentError, match="device arrays only"):
        plan.forward(operands(rng), stream=0)

    class FakeDeviceArray:
        __cuda_array_interface__ = {"shape": (N,), "typestr": "<u8", "data": (4096, False),
                                    "version": 3, "strides": None}

    if plan.backend != "cuda":
        with pytest.raises(ntt.UnsupportedError, match="backend='cuda'") as info:
            plan.forward(FakeDeviceArray(), inplace=True)
        assert info.value.status == ntt.Status.EUNSUPPORTED
    with pytest.raises(ntt.InvalidArgumentError, match="host arrays"):
        ntt.polymul_mod(FakeDeviceArray(), [1], P)


def test_unavailable_backend_is_unsupported():
    missing = [b for b in ("scalar", "avx2", "openmp", "cuda", "avx512")
               if not ntt.backend_available(b)]
    if not missing:
        pytest.skip("every backend is available on this machine")
    # The message says which backend and why (ntt_error_detail), not only
    # that the call failed.
    why = f'backend "{missing[0]}" (is not built|needs|is built but no CUDA GPU)'
    with pytest.raises(ntt.UnsupportedError, match=why) as info:
        ntt.Plan(N, P, backend=missing[0])
    assert info.value.status == ntt.Status.EUNSUPPORTED
    with pytest.raises(ntt.UnsupportedError, match="ntt_polymul_mod failed: " + why):
        ntt.polymul_mod([1, 2], [3, 4], P, backend=missing[0])


def test_the_library_detail_reaches_python():
    # A condition the package does not check itself, so the library's own
    # words reach the exception: a batch over the bound of 2^40 / n.
    with pytest.raises(ntt.InvalidArgumentError, match=r"batch 1099511627776 \(at most"):
        ntt.Plan(2, P, batch=2**40)
    # The raw call: the detail is the calling thread's, right after it.
    import ctypes
    from ntt import _lib
    handle = ctypes.c_void_p()
    status = _lib.plan_create(ctypes.byref(handle), 16, 100, 64, 0, None)
    assert status == ntt.Status.EMODULUS
    assert _lib.error_detail().decode() == "modulus 100 is not prime"


def test_number_theory_argument_errors():
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.is_prime(-1)
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.is_prime(1 << 64)
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.is_prime(7.0)
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.find_prime(64, 10)
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.find_prime(20, 20)
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.find_prime(8, 6, 1)  # below 2^8 only 193 has 64 | p-1

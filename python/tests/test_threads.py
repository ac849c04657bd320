"""Threads: the GIL is released during library calls (ctypes.CDLL), plans
run concurrently in separate threads, and a shared plan serializes its
callers."""

import ctypes
import threading
import time

import numpy as np

import ntt
from ntt import _lib

P = 2 ** 61 - 1
N = 1 << 18


def samples_during_call(fn, args):
    """Timestamps at which the main thread ran Python code while another
    thread was inside fn(*args), in the middle half of the call: around its
    ends, GIL hand-offs (every switch interval) let the main thread run
    before the call starts and after it returns, whoever holds the GIL."""
    window = {}
    started = threading.Event()

    def worker():
        started.set()
        t0 = time.perf_counter()
        status = fn(*args)
        window["t"] = (t0, time.perf_counter(), status)

    stamps = []
    thread = threading.Thread(target=worker)
    thread.start()
    started.wait()
    while thread.is_alive():
        stamps.append(time.perf_counter())
    thread.join()
    t0, t1, status = window["t"]
    assert status == 0
    quarter = (t1 - t0) / 4
    return [t for t in stamps if t0 + quarter < t < t1 - quarter]


def test_the_gil_is_released_during_calls(rng):
    a = rng.integers(0, P, size=N, dtype=np.uint64)
    b = rng.integers(0, P, size=N, dtype=np.uint64)
    c = np.empty(2 * N - 1, np.uint64)
    scalar = 1
    args = (c.ctypes.data, a.ctypes.data, N, b.ctypes.data, N, P, scalar, None)
    # The same function through a handle that keeps the GIL (PyDLL): the
    # main thread cannot run during the call, which shows the measurement
    # can tell the two apart.
    held = ctypes.PyDLL(ntt.library_path()).ntt_polymul_mod_ex
    held.restype, held.argtypes = _lib.polymul_mod_ex.restype, _lib.polymul_mod_ex.argtypes
    assert samples_during_call(held, args) == []
    # ... while the package's handle lets it run (several tries: on a
    # loaded machine the main thread may wait for a core).
    assert any(samples_during_call(_lib.polymul_mod_ex, args) for _ in range(5))
    assert not _lib.lib._func_flags_ & ctypes._FUNCFLAG_PYTHONAPI


def test_plans_in_two_threads(rng):
    q = [ntt.find_prime(60, 14, i) for i in range(2)]
    data = rng.integers(0, min(q), size=(2, 2, 4096), dtype=np.uint64)
    expected = {}
    for i in range(2):
        with ntt.Plan(4096, q, negacyclic=True) as plan:
            expected[i] = plan.polymul(data[i], data[1 - i])
    results, errors = {}, []

    def work(i):
        try:
            with ntt.Plan(4096, q, negacyclic=True) as plan:
                for _ in range(20):
                    results[i] = plan.polymul(data[i], data[1 - i])
        except Exception as e:  # reported below, in the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(2):
        assert np.array_equal(results[i], expected[i])


def test_a_shared_plan_serializes_its_callers(rng):
    p = 998244353
    a = rng.integers(0, p, size=(8, 1024), dtype=np.uint64)
    with ntt.Plan(1024, p) as plan:
        expected = plan.polymul(a, a[::-1].copy())
        results, errors = [], []

        def work():
            try:
                for _ in range(30):
                    results.append(plan.polymul(a, a[::-1].copy()))
            except Exception as e:  # reported below, in the main thread
                errors.append(e)

        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors and len(results) == 90
    assert all(np.array_equal(r, expected) for r in results)

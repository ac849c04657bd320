#!/usr/bin/env python3
"""The batched negacyclic RNS transform of rns_negacyclic.py on a CuPy array:
the library's ntt_cuda_* calls run on the array's memory and the current
CuPy stream, with no copies.

    NTT_LIBRARY=build/libntt.so python3 examples/python/rns_negacyclic_cupy.py [LOG2_N]

Needs CuPy, a GPU and a libntt built with CUDA; exits 77 otherwise.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))

import numpy as np  # noqa: E402

import ntt  # noqa: E402

try:
    import cupy
    if cupy.cuda.runtime.getDeviceCount() == 0:
        raise RuntimeError("no device")
except Exception as e:  # ImportError, CUDARuntimeError: nothing to run on
    print(f"skipped: CuPy with a GPU is needed ({e})")
    sys.exit(77)
if not ntt.backend_available("cuda"):
    print(f"skipped: {ntt.library_path()} has no usable CUDA backend")
    sys.exit(77)


def main():
    log_n = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    n, limbs, polys = 1 << log_n, 4, 8
    q = [ntt.find_prime(50, log_n + 1, i) for i in range(limbs)]
    rng = np.random.default_rng()
    bounds = np.array(q, dtype=np.uint64).reshape(1, limbs, 1)
    a = rng.integers(0, 1 << 50, size=(polys, limbs, n), dtype=np.uint64) % bounds
    b = rng.integers(0, 1 << 50, size=(polys, limbs, n), dtype=np.uint64) % bounds

    stream = cupy.cuda.Stream(non_blocking=True)
    with ntt.Plan(n, q, negacyclic=True, backend="cuda") as plan, stream:
        da, db = cupy.asarray(a), cupy.asarray(b)  # on `stream`, as is everything below
        plan.forward(da, inplace=True)            # polys * limbs items, one call
        plan.forward(db, inplace=True)
        plan.pointwise(da, db, out=da)
        plan.inverse(da, inplace=True)
        dc = cupy.empty_like(da)
        plan.polymul(cupy.asarray(a), cupy.asarray(b), out=dc)  # the same in one call
        stream.synchronize()
        c, c_direct = cupy.asnumpy(da), cupy.asnumpy(dc)

    with ntt.Plan(n, q, negacyclic=True) as cpu:
        ok = np.array_equal(c, cpu.polymul(a, b)) and np.array_equal(c, c_direct)
    print(f"{polys} x {limbs} limbs of 2^{log_n} on {ntt.cuda_info()['name']}: products "
          f"{'match' if ok else 'DIFFER FROM'} the CPU plan's")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""What the Python wrapper adds to a batched transform of a CuPy array, over
the bare C call ntt_cuda_forward_u64, in one process on one GPU.

For each shape (polys, limbs, N) of uint64 limbs under an RNS plan of
`limbs` primes, each round runs, in a random order: R calls of the C
function from a loop in C (bench_timer.c, timed inside C), R calls of
plan.forward(d, inplace=True) from a Python loop, and R calls of the C
function through its ctypes prototype; each timed twice: the host time of
the R calls alone (what the caller's thread spends enqueueing), and until
the stream has finished them (the cost per transform).  Reported: per-call
medians over the rounds and the per-round differences to the C loop, in
microseconds.  Results are checked against the CPU backend first.

    NTT_LIBRARY=build/libntt.so python3 python/bench_cuda.py [--json FILE]
"""

import argparse
import ctypes
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import ntt  # noqa: E402
from ntt import _lib  # noqa: E402
from bench_polymul import build_helper, machine  # noqa: E402


def bench_shape(timer, cupy, polys, limbs, log_n, reps, rounds, rng):
    n = 1 << log_n
    q = [ntt.find_prime(60, log_n + 1, i) for i in range(limbs)]
    bounds = np.array(q, dtype=np.uint64).reshape(1, limbs, 1)
    host = rng.integers(0, 1 << 60, size=(polys, limbs, n), dtype=np.uint64) % bounds
    stream = cupy.cuda.Stream(non_blocking=True)
    count = polys * limbs
    status = ctypes.c_int()
    with ntt.Plan(n, q, negacyclic=True, backend="cuda") as plan, \
            ntt.Plan(n, q, negacyclic=True) as cpu:
        with stream:
            d = cupy.asarray(host)
            plan.forward(d, inplace=True)
        stream.synchronize()
        if not np.array_equal(cupy.asnumpy(d), cpu.forward(host)):
            raise SystemExit(f"FAILED: the GPU transform differs at {polys}x{limbs}x2^{log_n}")
        ptr, handle, sp = d.data.ptr, plan._handle, stream.ptr
        raw = _lib.exec_fns["cuda_forward", "u64"]

        def c_loop():
            ns = timer.ntt_bench_cuda_forward_ns(handle, ptr, count, n, sp, reps,
                                                 ctypes.byref(status))
            if status.value:
                raise SystemExit(f"FAILED: ntt_cuda_forward_u64 status {status.value}")
            return ns

        def py_loop():
            t0 = time.perf_counter_ns()
            for _ in range(reps):
                plan.forward(d, inplace=True, stream=sp)
            return time.perf_counter_ns() - t0

        def ctypes_loop():
            t0 = time.perf_counter_ns()
            for _ in range(reps):
                raw(handle, ptr, count, n, sp)
            return time.perf_counter_ns() - t0

        kinds = {"C loop": c_loop, "plan.forward": py_loop, "ctypes, bare": ctypes_loop}
        host_ns = {k: [] for k in kinds}
        total_ns = {k: [] for k in kinds}
        for f in kinds.values():  # warm-up
            f()
        stream.synchronize()
        for _ in range(rounds):
            for k in rng.permutation(list(kinds)):
                t0 = time.perf_counter_ns()
                host_ns[k].append(kinds[k]())
                stream.synchronize()
                total_ns[k].append(time.perf_counter_ns() - t0)
    out = {}
    for k in kinds:
        h = np.array(host_ns[k]) / reps / 1e3
        t = np.array(total_ns[k]) / reps / 1e3
        hc = np.array(host_ns["C loop"]) / reps / 1e3
        tc = np.array(total_ns["C loop"]) / reps / 1e3
        out[k] = {"host_us": float(np.median(h)), "total_us": float(np.median(t)),
                  "host_minus_c_us": [float(x) for x in np.percentile(h - hc, [10, 50, 90])],
                  "total_minus_c_us": [float(x) for x in np.percentile(t - tc, [10, 50, 90])]}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shapes", default="1x1x12,8x4x12,8x4x16,4x8x17",
                    help="POLYSxLIMBSxLOG2N, comma-separated")
    ap.add_argument("--reps", type=int, default=50, help="calls per timed loop")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--json")
    args = ap.parse_args()
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() == 0:
            raise RuntimeError("no device")
    except Exception as e:
        print(f"skipped: CuPy with a GPU is needed ({e})")
        return 77
    if not ntt.backend_available("cuda"):
        print(f"skipped: {ntt.library_path()} has no usable CUDA backend")
        return 77
    rng = np.random.default_rng()
    info = machine()
    info["gpu"] = ntt.cuda_info()
    print(f"# {info['gpu']['name']}, {info['cpu']}, Python {info['python']}, commit "
          f"{info['commit']}, libntt {info['library']}")
    print(f"# {args.reps} calls per loop, {args.rounds} rounds; per call: median; "
          f"difference to the C loop: median [p10, p90] over the rounds")
    result = {"machine": info, "shapes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        timer, why = build_helper(tmp)
        if timer is None:
            raise SystemExit(f"no C timer: {why}")
        for shape in args.shapes.split(","):
            polys, limbs, log_n = (int(x) for x in shape.split("x"))
            rows = bench_shape(timer, cupy, polys, limbs, log_n, args.reps, args.rounds, rng)
            result["shapes"][shape] = rows
            print(f"\n{polys} x {limbs} limbs x 2^{log_n}, negacyclic forward, in place")
            for k, r in rows.items():
                dh, dt = r["host_minus_c_us"], r["total_minus_c_us"]
                print(f"  {k:14s} enqueue {r['host_us']:8.2f} us ({dh[1]:+6.2f} [{dh[0]:+.2f}, "
                      f"{dh[2]:+.2f}])   to completion {r['total_us']:9.2f} us ({dt[1]:+6.2f} "
                      f"[{dt[0]:+.2f}, {dt[2]:+.2f}])")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

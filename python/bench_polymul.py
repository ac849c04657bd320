#!/usr/bin/env python3
"""How much the Python package costs over the C call, and what it gains over
sympy, measured in one process.

1. ntt.polymul_mod(a, b, p) at n = 131072 coefficients each, against the
   bare C call ntt_polymul_mod on the same arrays, timed inside C by a tiny
   helper (bench_timer.c, compiled here and linked to the libntt the
   package loaded).  Each round runs, in a random order: the C call twice
   (the second is an A/A control: its ratio to the first shows the noise),
   the wrapper with out= (a pre-made output, like the C call), the wrapper
   allocating its output (the common use), and the C function called
   directly through ctypes.  Reported: the median and the 10th-90th
   percentiles of the per-round ratios to the first C call, for wall-clock
   time and for the CPU time of the calling thread (which leaves out the
   time the thread waited for a core: on a shared machine, the steadier
   figure; it counts no other thread, so it suits single-threaded backends
   only, and the script says which backend "auto" is).
2. sympy's convolution_ntt on doubling sizes, up to the largest it finishes
   within --sympy-limit seconds, against ntt.polymul_mod on the same inputs.

Every product is checked before it is timed (outputs identical, and equal
to a(x) b(x) at a random point).

    NTT_LIBRARY=build/libntt.so python3 python/bench_polymul.py [--json FILE]
"""

import argparse
import ctypes
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import ntt  # noqa: E402
from ntt import _lib  # noqa: E402


def horner(coeffs, x, p):
    acc = 0
    for c in reversed(coeffs):
        acc = (acc * x + c) % p
    return acc


def check_product(c, a, b, p, rng):
    x = int(rng.integers(2, p)) if p > 2 else 1
    a, b, c = a.tolist(), b.tolist(), c.tolist()
    if horner(c, x, p) != horner(a, x, p) * horner(b, x, p) % p:
        raise SystemExit(f"FAILED: wrong product mod {p}")


def build_helper(tmp):
    """The C timers (bench_timer.c), or None and the reason it could not be
    built."""
    include = os.path.join(os.path.dirname(HERE), "include")
    if not os.path.isfile(os.path.join(include, "ntt.h")):
        return None, "include/ntt.h not found beside python/"
    out = os.path.join(tmp, "libntt_bench_timer.so")
    cmd = [os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", "-I", include,
           os.path.join(HERE, "bench_timer.c"), ntt.library_path(), "-o", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return None, f"{' '.join(cmd)} failed: {r.stderr.strip()}"
    timer = ctypes.CDLL(out)
    timer.ntt_bench_polymul_ns.restype = ctypes.c_int64
    timer.ntt_bench_polymul_ns.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t,
        ctypes.c_uint64, ctypes.c_int, ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.c_int64)]
    timer.ntt_bench_cuda_forward_ns.restype = ctypes.c_int64
    timer.ntt_bench_cuda_forward_ns.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
        ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
    return timer, None


def percentiles(xs):
    q = np.percentile(xs, [10, 50, 90])
    return {"p10": float(q[0]), "median": float(q[1]), "p90": float(q[2])}


def wrapper_vs_c(helper, n, p, backend, rounds, rng):
    a = rng.integers(0, p, size=n, dtype=np.uint64)
    b = rng.integers(0, p, size=n, dtype=np.uint64)
    c_ref = np.empty(2 * n - 1, np.uint64)
    c_out = np.empty_like(c_ref)
    c_raw = np.empty_like(c_ref)
    code = ntt._names.backend_code(backend)
    status = ctypes.c_int()
    opts = _lib.make_options()

    cpu = ctypes.c_int64()

    def c_call():
        ns = helper(c_ref.ctypes.data, a.ctypes.data, n, b.ctypes.data, n, p, code,
                    ctypes.byref(status), ctypes.byref(cpu))
        if status.value:
            raise SystemExit(f"FAILED: ntt_polymul_mod status {status.value}")
        return ns, cpu.value

    def timed(f):
        c0 = time.thread_time_ns()
        t0 = time.perf_counter_ns()
        f()
        t1 = time.perf_counter_ns()
        return t1 - t0, time.thread_time_ns() - c0

    def raw():
        s = _lib.polymul_mod_ex(c_raw.ctypes.data, a.ctypes.data, n, b.ctypes.data, n, p,
                                code, ctypes.addressof(opts))
        if s:
            raise SystemExit(f"FAILED: ntt_polymul_mod_ex status {s}")

    kinds = {
        "C": c_call,
        "C again (A/A)": c_call,
        "ntt.polymul_mod(out=)": lambda: timed(lambda: ntt.polymul_mod(a, b, p, backend,
                                                                        out=c_out)),
        "ntt.polymul_mod": lambda: timed(lambda: ntt.polymul_mod(a, b, p, backend)),
        "ctypes, bare": lambda: timed(raw),
    }
    for f in kinds.values():  # warm-up: plans cached, pages touched
        f()
        f()
    check_product(c_ref, a, b, p, rng)
    if not (np.array_equal(c_ref, c_out) and np.array_equal(c_ref, c_raw) and
            np.array_equal(c_ref, ntt.polymul_mod(a, b, p, backend))):
        raise SystemExit(f"FAILED: the wrapper's product differs from the C call's (p={p})")

    names = list(kinds)
    wall = {k: [] for k in names}
    cpu_t = {k: [] for k in names}
    for _ in range(rounds):
        for k in rng.permutation(names):
            w, c = kinds[k]()
            wall[k].append(w)
            cpu_t[k].append(c)
    out = {}
    for k in names:
        out[k] = {}
        for clock, t in (("wall", wall), ("cpu", cpu_t)):
            v = np.array(t[k], dtype=float)
            out[k][clock] = {"ratio_to_C": percentiles(v / np.array(t["C"], dtype=float)),
                             "ms": percentiles(v / 1e6)}
    return out


def sympy_vs_ntt(p, limit, backend, rng, start_log=10):
    from sympy.discrete.convolutions import convolution_ntt
    rows, log_n = [], start_log
    while True:
        n = 1 << log_n
        a = rng.integers(0, p, size=n, dtype=np.uint64)
        b = rng.integers(0, p, size=n, dtype=np.uint64)
        al, bl = a.tolist(), b.tolist()
        t0 = time.perf_counter()
        expected = convolution_ntt(al, bl, p)
        t_sympy = time.perf_counter() - t0
        c = ntt.polymul_mod(a, b, p, backend)
        if c.tolist() != expected[:2 * n - 1]:
            raise SystemExit(f"FAILED: ntt and sympy differ at n={n}")
        ts = []
        for _ in range(21):
            t0 = time.perf_counter()
            ntt.polymul_mod(a, b, p, backend)
            ts.append(time.perf_counter() - t0)
        t_ntt = float(np.median(ts))
        rows.append({"n": n, "sympy_s": t_sympy, "ntt_s": t_ntt, "speedup": t_sympy / t_ntt})
        print(f"  n = 2^{log_n:<3} sympy {t_sympy:9.3f} s   ntt {t_ntt * 1e3:9.3f} ms   "
              f"{t_sympy / t_ntt:10.0f}x", flush=True)
        # the next size takes a little over twice as long: stop where it
        # would pass the limit by more than half
        if t_sympy > limit or t_sympy * 2.2 > 1.5 * limit:
            return rows
        log_n += 1


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f
                          if line.startswith("model name")), "")
    except OSError:
        pass
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "library": ntt.library_path(),
            "auto_backend": ntt.auto_backend(), "commit": commit}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=131072, help="coefficients per operand")
    ap.add_argument("--moduli", default="469762049,2305843009213693951",
                    help="comma-separated moduli for the wrapper-vs-C rounds")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--sympy-limit", type=float, default=60.0,
                    help="seconds: the largest sympy size is the last one within this")
    ap.add_argument("--sympy-prime", type=int, default=469762049)
    ap.add_argument("--no-sympy", action="store_true")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()

    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = np.random.default_rng(seed)
    info = machine()
    info["seed"] = seed
    info["load_start"] = os.getloadavg()
    print(f"# {info['cpu']}, {info['cores']} cores, Python {info['python']}, numpy "
          f"{info['numpy']}, commit {info['commit']}")
    print(f"# libntt {info['library']} (auto backend: {info['auto_backend']}); seed {seed}; "
          f"load average {info['load_start'][0]:.2f}")
    result = {"machine": info, "wrapper_vs_c": {}, "sympy": None}

    with tempfile.TemporaryDirectory() as tmp:
        timer, why = build_helper(tmp)
        if timer is None:
            print(f"# no C timer ({why}): wrapper-vs-C rounds skipped")
        else:
            for p in (int(x) for x in args.moduli.split(",")):
                print(f"\npolymul_mod, {args.n} x {args.n} coefficients mod {p}, backend "
                      f"{args.backend}, {args.rounds} rounds (ratio to the C call: median "
                      f"[p10, p90]; time: median)")
                rows = wrapper_vs_c(timer.ntt_bench_polymul_ns, args.n, p, args.backend,
                                    args.rounds, rng)
                result["wrapper_vs_c"][str(p)] = rows
                for clock, title in (("wall", "wall-clock time"),
                                     ("cpu", "CPU time of the calling thread")):
                    print(f"  {title}:")
                    for name, r in rows.items():
                        q, ms = r[clock]["ratio_to_C"], r[clock]["ms"]
                        print(f"    {name:24s} {q['median']:6.3f}  [{q['p10']:.3f}, "
                              f"{q['p90']:.3f}]   {ms['median']:8.3f} ms")

    if not args.no_sympy:
        print(f"\nsympy convolution_ntt against ntt.polymul_mod, n x n mod {args.sympy_prime} "
              f"(sympy: one run; ntt: median of 21)")
        rows = sympy_vs_ntt(args.sympy_prime, args.sympy_limit, args.backend, rng)
        within = [r for r in rows if r["sympy_s"] <= args.sympy_limit] or rows[:1]
        best = within[-1]
        print(f"  largest size sympy finished within {args.sympy_limit:.0f} s: n = {best['n']} "
              f"({best['sympy_s']:.1f} s); ntt.polymul_mod {best['ntt_s'] * 1e3:.2f} ms: "
              f"{best['speedup']:.0f}x")
        result["sympy"] = {"prime": args.sympy_prime, "limit_s": args.sympy_limit,
                           "rows": rows, "largest_within_limit": best}

    info["load_end"] = os.getloadavg()
    print(f"\n# load average at the end {info['load_end'][0]:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()

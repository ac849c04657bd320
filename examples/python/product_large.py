#!/usr/bin/env python3
"""The product of two large polynomials modulo any p < 2^63.

    NTT_LIBRARY=build/libntt.so python3 examples/python/product_large.py [LOG2_N] [P]

Multiplies two random polynomials of 2^LOG2_N coefficients (default 2^20)
modulo P (default 2^61 - 1, a prime with no large power of two in p-1:
the library multiplies over several NTT primes and recombines by CRT), then
checks the product at a random point: c(x) == a(x) b(x) mod p.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))

import numpy as np  # noqa: E402

import ntt  # noqa: E402


def at(poly, x, p):
    """poly(x) mod p, by Horner."""
    acc = 0
    for coef in reversed(poly.tolist()):
        acc = (acc * x + coef) % p
    return acc


def main():
    n = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 20)
    p = int(sys.argv[2]) if len(sys.argv) > 2 else 2 ** 61 - 1
    rng = np.random.default_rng()
    a = rng.integers(0, p, size=n, dtype=np.uint64)
    b = rng.integers(0, p, size=n, dtype=np.uint64)

    times = []
    for _ in range(2):  # the first call also builds the plans, which are cached
        t0 = time.perf_counter()
        c = ntt.polymul_mod(a, b, p)
        times.append(time.perf_counter() - t0)

    x = int(rng.integers(2, p))
    ok = at(c, x, p) == at(a, x, p) * at(b, x, p) % p
    print(f"{n} x {n} coefficients mod {p}: {len(c)} coefficients in {times[1] * 1e3:.1f} ms "
          f"({times[0] * 1e3:.1f} ms for the first call, plans included; backend "
          f"{ntt.auto_backend()}, libntt {ntt.library_path()})")
    print(f"check c(x) == a(x) b(x) at a random x: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

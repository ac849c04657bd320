#!/usr/bin/env python3
"""A batched negacyclic transform over RNS limbs, as in CKKS/BFV.

    NTT_LIBRARY=build/libntt.so python3 examples/python/rns_negacyclic.py [LOG2_N]

A ciphertext-like batch: 2 polynomials of degree < N = 2^LOG2_N (default
2^12), each stored as L = 4 limbs modulo distinct 50-bit primes q_i with
2N | q_i - 1, as an array of shape (2, 4, N).  One plan transforms the whole
batch (item i uses q[i % 4]); a pointwise product and the inverse give the
products mod (x^N + 1) limb by limb.  The limbs are checked against the
product computed over the integers (small coefficients, exact).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))

import numpy as np  # noqa: E402

import ntt  # noqa: E402


def negacyclic_over_z(a, b):
    """a * b mod (x^N + 1) over the integers, exactly (Python ints)."""
    n = len(a)
    c = [0] * n
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                k = i + j
                if k < n:
                    c[k] += x * y
                else:
                    c[k - n] -= x * y
    return c


def main():
    log_n = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    n, limbs = 1 << log_n, 4
    q = [ntt.find_prime(50, log_n + 1, i) for i in range(limbs)]  # 2N | q-1
    rng = np.random.default_rng()

    # Small signed coefficients (|a_i| < 2^10), each limb holding them mod q_i.
    small_a = rng.integers(-1023, 1024, size=(2, n))
    small_b = rng.integers(-1023, 1024, size=(2, n))
    qs = np.array(q, dtype=np.int64).reshape(1, limbs, 1)
    a = (small_a[:, None, :] % qs).astype(np.uint64)  # shape (2, limbs, n)
    b = (small_b[:, None, :] % qs).astype(np.uint64)

    with ntt.Plan(n, q, negacyclic=True) as plan:
        fa = plan.forward(a)       # the whole batch: 2 * limbs items
        fb = plan.forward(b)
        plan.pointwise(fa, fb, inplace=True)
        c = plan.inverse(fa)        # a * b mod (x^N + 1), mod q_i in limb i
        direct = plan.polymul(a, b)  # the same in one call
        print(f"{plan}: batch of shape {a.shape}, backend {plan.backend}")

    ok = np.array_equal(c, direct)
    for k in range(2):
        exact = negacyclic_over_z(small_a[k].tolist(), small_b[k].tolist())
        for i, qi in enumerate(q):
            ok &= c[k, i].tolist() == [v % qi for v in exact]
    print(f"limbs against the product over the integers: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

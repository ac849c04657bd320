#!/usr/bin/env python3
"""A CKKS relinearization key switch with ntt.rns, checked by decryption.

    NTT_LIBRARY=build/libntt.so python3 examples/python/ckks_keyswitch.py [LOG2_N]

Makes a switching key from s^2 to s (ternary secret s, hybrid key
switching with dnum = 2 digits over L+1 = 4 primes of 50 bits and K = 2
special primes of 55 bits), switches a random component d at the top level
and one below, and checks that out0 + out1 * s = d * s^2 + a small error
modulo Q_l (the error found by CRT over Python integers, centred), and that
the one-call key switch gives the words of modup, ks_inner and moddown
called one by one.
"""

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))

import numpy as np  # noqa: E402

import ntt  # noqa: E402
import ntt.rns  # noqa: E402


def main():
    log_n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    n, dnum = 1 << log_n, 2
    q = [ntt.find_prime(50, log_n + 1, i) for i in range(4)]
    p = [ntt.find_prime(55, log_n + 1, i) for i in range(2)]
    rng = np.random.default_rng()
    with ntt.rns.Context(n, q, p, dnum=dnum) as ctx, \
            ntt.Plan(n, ctx.primes, negacyclic=True) as plan:
        allq = np.array(ctx.primes, dtype=np.uint64)[:, None]
        limbs = ctx.level_limbs(ctx.L, extended=True)   # all of Q, then P

        def small(bound):
            """A polynomial with coefficients in [-bound, bound], on every
            limb, evaluation form."""
            c = rng.integers(-bound, bound + 1, n)
            rows = np.stack([np.array([int(v) % t for v in c], dtype=np.uint64)
                             for t in ctx.primes])
            return ctx.forward(rows, limbs, inplace=True)

        def add(a, b, mods):
            return (a + b) % mods

        def neg(a, mods):
            return (mods - a) % mods

        def times(c, a):
            """The integer c times a, limb by limb (evaluation form)."""
            rows = np.stack([np.full(n, c % t, np.uint64) for t in ctx.primes])
            return plan.pointwise(rows, a)

        s = small(1)
        s2 = plan.pointwise(s, s)
        Q, P = math.prod(q), math.prod(p)
        key = np.empty((dnum, 2, len(limbs), n), np.uint64)
        dmax = 0
        for j in range(dnum):
            first, count = ctx.digit_range(ctx.L, j)
            D = math.prod(q[first:first + count])
            dmax = max(dmax, D)
            gadget = (Q // D) * pow(Q // D % D, -1, D)        # 1 mod D, 0 mod Q/D
            a = np.stack([rng.integers(0, t, n, dtype=np.uint64) for t in ctx.primes])
            body = add(neg(plan.pointwise(a, s), allq), small(3), allq)
            key[j, 0] = add(body, times(P * gadget, s2), allq)
            key[j, 1] = a
        ctx.key_check(key)

        worst = 0
        for level in (ctx.L, ctx.L - 1):
            lq = allq[:level + 1]
            d = np.stack([rng.integers(0, t, n, dtype=np.uint64) for t in q[:level + 1]])
            out0, out1 = ctx.keyswitch(d, level, key)

            ext = np.stack([ctx.modup(d[f:f + c], level, j) for j in range(ctx.digits(level))
                            for f, c in [ctx.digit_range(level, j)]])
            acc0, acc1 = ctx.ks_inner(ext, level, key)
            assert np.array_equal(ctx.moddown(acc0, level), out0)
            assert np.array_equal(ctx.moddown(acc1, level), out1)

            with ntt.Plan(n, q[:level + 1], negacyclic=True) as lp:
                lhs = add(out0, lp.pointwise(out1, s[:level + 1]), lq)
                err = add(lhs, neg(lp.pointwise(d, s2[:level + 1]), lq), lq)
            err = ctx.inverse(err, list(range(level + 1)), inplace=True)
            Ql = math.prod(q[:level + 1])
            hats = [Ql // t for t in q[:level + 1]]
            coef = [sum(int(err[i, k]) * h * pow(h % t, -1, t)
                        for i, (h, t) in enumerate(zip(hats, q[:level + 1]))) % Ql
                    for k in range(n)]
            e = max(abs(v - Ql if v > Ql // 2 else v) for v in coef)
            print(f"level {level}: |out0 + out1 s - d s^2| <= {e} (2^{e.bit_length()}), "
                  f"Q_l = 2^{Ql.bit_length()}")
            worst = max(worst, e)
    # The error: the key's (|e| <= 3) times each digit's modUp (below
    # alpha D as an integer: FastBConv adds u D, u < alpha), over P; plus
    # modDown's (its FastBConv adds u P, u < K: below K+1 on out0, and on
    # out1 times s, N (K+1)).
    bound = -(-n * 3 * dnum * ctx.alpha * dmax // P) + (n + 1) * (len(p) + 1)
    ok = worst <= bound
    print(f"error bound {bound}; check out0 + out1 s == d s^2 + e within it: "
          f"{'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

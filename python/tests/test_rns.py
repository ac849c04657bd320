"""ntt.rns against the formulas of include/ntt_rns.h computed over Python's
integers: base conversions as the sum of [x_i (B/b_i)^-1]_{b_i} (B/b_i)
(checked to be X + u B, 0 <= u < s, for the CRT value X), modDown and
rescale as the exact quotient (X - S) / D reduced mod each q_i, the inner
product as a sum of products, the key switch as the composition of those.
Moving between evaluation and coefficient form uses scalar negacyclic
ntt.Plan transforms (checked against direct evaluation and sympy in
test_plan.py); all other arithmetic is Python's.  Then the documented
errors, with outputs left untouched."""

import math
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import ntt
import ntt.rns
from conftest import CPU_BACKENDS

# ---- the reference -------------------------------------------------------------


class Oracle:
    """Big-integer versions of the context's operations, for its primes."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.n = ctx.n
        self.plans = {p: ntt.Plan(ctx.n, p, negacyclic=True, backend="scalar")
                      for p in ctx.primes}

    def close(self):
        for plan in self.plans.values():
            plan.close()

    def ntt(self, row, p):
        return [int(v) for v in self.plans[p].forward(np.array(row, dtype=np.uint64))]

    def intt(self, row, p):
        return [int(v) for v in self.plans[p].inverse(np.array(row, dtype=np.uint64))]

    def ext_primes(self, level):
        return [self.ctx.primes[k] for k in self.ctx.level_limbs(level, extended=True)]

    @staticmethod
    def conv_sum(rows, base):
        """S[k] = sum_i [x_i[k] (B/b_i)^-1]_{b_i} (B/b_i), asserting S = X + u B
        with u < s (X = S mod B is the CRT value)."""
        B = math.prod(base)
        hats = [B // b for b in base]
        invs = [pow(h % b, -1, b) for h, b in zip(hats, base)]
        out = []
        for k in range(len(rows[0])):
            terms = [(int(r[k]) * inv % b) * h for r, inv, b, h in zip(rows, invs, base, hats)]
            s = sum(terms)
            assert s // B < len(base)
            out.append(s)
        return out

    @staticmethod
    def crt(rows, base):
        B = math.prod(base)
        hats = [B // b for b in base]
        invs = [pow(h % b, -1, b) for h, b in zip(hats, base)]
        return [sum(int(r[k]) * inv * h for r, inv, h in zip(rows, invs, hats)) % B
                for k in range(len(rows[0]))]

    def fastbconv(self, x, src, dst):
        base = [self.ctx.primes[i] for i in src]
        S = self.conv_sum(x, base)
        return [[v % self.ctx.primes[j] for v in S] for j in dst]

    def modup(self, x, level, digit):
        first, count = self.ctx.digit_range(level, digit)
        primes = self.ext_primes(level)
        base = primes[first:first + count]
        S = self.conv_sum([self.intt(r, b) for r, b in zip(x, base)], base)
        return [[int(v) for v in x[k - first]] if first <= k < first + count else
                self.ntt([v % t for v in S], t) for k, t in enumerate(primes)]

    def divide(self, x, primes, dfirst, nout):
        """NTT((X - S) / D mod primes[i]) for i < nout: X the CRT value of all
        rows (evaluation form, row i mod primes[i]), D the product of the
        primes from dfirst on and S the conversion of those rows."""
        coef = [self.intt(r, p) for r, p in zip(x, primes)]
        X = self.crt(coef, primes)
        S = self.conv_sum(coef[dfirst:], primes[dfirst:])
        D = math.prod(primes[dfirst:])
        Y = []
        for a, b in zip(X, S):
            quo, rem = divmod(a - b, D)
            assert rem == 0
            Y.append(quo)
        return [self.ntt([v % p for v in Y], p) for p in primes[:nout]]

    def moddown(self, x, level):
        return self.divide(x, self.ext_primes(level), level + 1, level + 1)

    def rescale(self, x, level):
        return self.divide(x, list(self.ctx.primes[:level + 1]), level, level)

    def ks_inner(self, ext, level, key):
        ctx = self.ctx
        beta, limbs = ctx.digits(level), ctx.level_limbs(level, extended=True)
        key = key.reshape(ctx.dnum, 2, ctx.L + 1 + ctx.K, ctx.n).tolist()
        return [[[sum(ext[j][t][m] * key[j][c][k][m] for j in range(beta)) %
                  ctx.primes[k] for m in range(ctx.n)] for t, k in enumerate(limbs)]
                for c in range(2)]


# ---- data ------------------------------------------------------------------------


def make_primes(n, count, kind, rng, avoid=()):
    """count distinct primes with 2n | p-1: the largest below 2^61, below
    2^50, or of random lengths."""
    lo = (2 * n).bit_length() - 1
    out, index = [], {}
    while len(out) < count:
        bits = {"top": 61, "50": 50}.get(kind) or int(rng.integers(max(lo + 8, 30), 62))
        p = ntt.find_prime(bits, lo, index.get(bits, 0))
        index[bits] = index.get(bits, 0) + 1
        if p not in out and p not in avoid:
            out.append(p)
    return out


def poly(rng, primes, n, mode=0):
    """n words per prime, below it: random, or every word p-1 (mode 1)."""
    return np.stack([np.full(n, p - 1, np.uint64) if mode else
                     rng.integers(0, p, n, dtype=np.uint64) for p in primes])


def key_for(ctx, rng, mode=0):
    rows = [poly(rng, ctx.primes, ctx.n, mode) for _ in range(2 * ctx.dnum)]
    return np.stack(rows).reshape(ctx.dnum, 2, ctx.L + 1 + ctx.K, ctx.n)


CONFIGS = [  # n, L+1, K, dnum, prime kind
    (16, 3, 2, 2, "top"),
    (64, 5, 1, 3, "mixed"),
    (128, 4, 3, 1, "50"),
    (32, 1, 1, 1, "top"),
    (256, 3, 2, 3, "mixed"),
]


def contexts(n, nq, np_, dnum, kind, rng):
    """One context per CPU backend.  OpenMP runs 2 threads for N <= 32 and 1
    above: on a machine with more runnable threads than cores, each of its
    barriers can wait for a time slice, which made it most of this test's
    time."""
    q = make_primes(n, nq, kind, rng)
    p = make_primes(n, np_, kind, rng, avoid=q)
    return [ntt.rns.Context(n, q, p, dnum=dnum, backend=b,
                            threads=(2 if n <= 32 else 1) if b == "openmp" else 0)
            for b in CPU_BACKENDS]


# ---- every operation against the reference ----------------------------------------


@pytest.mark.parametrize("cfg", CONFIGS + ["random"],
                         ids=[f"N{c[0]}-Q{c[1]}-P{c[2]}-d{c[3]}-{c[4]}" for c in CONFIGS] +
                         ["random"])
def test_operations_against_big_integers(rng, cfg):
    if cfg == "random":
        nq = int(rng.integers(1, 7))
        cfg = (1 << int(rng.integers(3, 9)), nq, int(rng.integers(1, 4)),
               int(rng.integers(1, min(nq, 4) + 1)), ("top", "50", "mixed")[rng.integers(3)])
        print("random configuration", cfg)
    n, nq, np_, dnum, kind = cfg
    ctxs = contexts(n, nq, np_, dnum, kind, rng)
    o = Oracle(ctxs[0])
    mode = int(rng.integers(0, 4) == 0)  # now and then every word p-1
    try:
        ctx0 = ctxs[0]
        key = key_for(ctx0, rng, mode)
        for ctx in ctxs:
            assert ctx.key_check(key) is None
            assert (ctx.n, ctx.q, ctx.p, ctx.primes) == (n, ctx0.q, ctx0.p, ctx0.q + ctx0.p)
            assert (ctx.L, ctx.K, ctx.dnum, ctx.alpha) == (nq - 1, np_, dnum, -(-nq // dnum))
        # FastBConv between random disjoint lists of limbs.
        perm = [int(i) for i in rng.permutation(nq + np_)]
        fs = int(rng.integers(1, nq + np_))
        src, dst = perm[:fs], perm[fs:fs + int(rng.integers(1, nq + np_ - fs + 1))]
        x = poly(rng, [ctx0.primes[i] for i in src], n, mode)
        want = o.fastbconv(x, src, dst)
        for ctx in ctxs:
            assert ctx.fastbconv(x, src, dst).tolist() == want, ctx.backend

        levels = sorted({nq - 1, 0, int(rng.integers(0, nq))})
        for level in levels:
            e = level + 1 + np_
            x = poly(rng, ctx0.primes[:level + 1], n, mode)
            ext = []
            for j in range(ctx0.digits(level)):
                first, count = ctx0.digit_range(level, j)
                ext.append(o.modup(x[first:first + count], level, j))
                for ctx in ctxs:
                    got = ctx.modup(x[first:first + count], level, j)
                    assert got.shape == (e, n) and got.tolist() == ext[j], (ctx.backend, j)
            ext = np.array(ext, dtype=np.uint64)
            acc = o.ks_inner(ext.tolist(), level, key)
            want = [o.moddown(a, level) for a in acc]     # the key switch's result
            for ctx in ctxs:
                a0, a1 = ctx.ks_inner(ext, level, key)
                assert [a0.tolist(), a1.tolist()] == acc, ctx.backend
                assert ctx.moddown(a0, level).tolist() == want[0], ctx.backend
                assert ctx.moddown(a1, level).tolist() == want[1], ctx.backend
                k0, k1 = ctx.keyswitch(x, level, key.reshape(-1, n))
                assert [k0.tolist(), k1.tolist()] == want, ctx.backend
                k0, k1 = ctx.keyswitch(x, level, key.reshape(-1, ctx.L + 1 + ctx.K, n))
                assert [k0.tolist(), k1.tolist()] == want, ctx.backend
            if level >= 1:
                want_r = o.rescale(x, level)
                for ctx in ctxs:
                    assert ctx.rescale(x, level).tolist() == want_r, ctx.backend
            # The limb transforms are the negacyclic plans' of each limb.
            limbs = ctx0.level_limbs(level, extended=True)
            y = poly(rng, [ctx0.primes[k] for k in limbs], n)
            inv = [o.intt(r, ctx0.primes[k]) for r, k in zip(y, limbs)]
            for ctx in ctxs:
                got = ctx.inverse(y, limbs)
                assert got.tolist() == inv, ctx.backend
                assert ctx.forward(got, limbs).tolist() == y.tolist(), ctx.backend
    finally:
        o.close()
        for ctx in ctxs:
            ctx.close()


def test_out_and_in_place(rng):
    q = make_primes(32, 3, "mixed", rng)
    p = make_primes(32, 2, "mixed", rng, avoid=q)
    with ntt.rns.Context(32, q, p, dnum=2) as ctx:
        x = poly(rng, ctx.primes, 32)          # extended at level 2
        want = ctx.moddown(x, 2)
        out = np.zeros((3, 32), np.uint64)
        assert ctx.moddown(x, 2, out=out) is out and out.tolist() == want.tolist()
        y = x.copy()
        got = ctx.moddown(y, 2, inplace=True)
        assert got.base is y and got.tolist() == want.tolist()
        assert y[3:].tolist() == x[3:].tolist()  # the P rows are left as they were
        y = x.copy()
        assert ctx.moddown(y, 2, out=y[:3]).tolist() == want.tolist()

        z = x[:3].copy()
        want = ctx.rescale(z, 2)
        got = ctx.rescale(z, 2, inplace=True)
        assert got.shape == (2, 32) and got.tolist() == want.tolist()
        assert np.shares_memory(got, z)

        c = x[:3].copy()
        spec = ctx.forward(c, [0, 1, 2])
        assert c.tolist() == x[:3].tolist()   # out of place leaves a alone
        assert ctx.forward(c, [0, 1, 2], inplace=True) is c and c.tolist() == spec.tolist()
        out = np.empty_like(c)
        assert ctx.inverse(c, [0, 1, 2], out=out) is out and out.tolist() == x[:3].tolist()

        key = key_for(ctx, rng)
        o0, o1 = np.empty((3, 32), np.uint64), np.empty((3, 32), np.uint64)
        r0, r1 = ctx.keyswitch(x[:3], 2, key, out=(o0, o1))
        w0, w1 = ctx.keyswitch(x[:3], 2, key)
        assert r0 is o0 and r1 is o1 and o0.tolist() == w0.tolist() and o1.tolist() == w1.tolist()
        ext = np.stack([ctx.modup(x[f:f + c], 2, j)
                        for j in range(ctx.digits(2)) for f, c in [ctx.digit_range(2, j)]])
        acc = np.empty((2, 5, 32), np.uint64)
        ctx.ks_inner(ext.reshape(-1, 32), 2, key, out=(acc[0], acc[1]))
        assert ctx.moddown(acc[0], 2).tolist() == w0.tolist()
        # Python int sequences are accepted as inputs.
        assert ctx.rescale(x[:3].tolist(), 2).tolist() == want.tolist()


def test_queries_and_repr(rng):
    q = make_primes(16, 5, "top", rng)
    p = make_primes(16, 2, "top", rng, avoid=q)
    ctx = ntt.rns.Context(16, q, p, dnum=2, backend="scalar")
    assert ctx.alpha == 3 and [ctx.digits(l) for l in range(5)] == [1, 1, 1, 2, 2]
    assert ctx.digit_range(4, 1) == (3, 2) and ctx.digit_range(1, 0) == (0, 2)
    assert ctx.level_limbs(1) == [0, 1] and ctx.level_limbs(1, extended=True) == [0, 1, 5, 6]
    assert ctx.backend == "scalar" and "scalar" in repr(ctx)
    ctx.close()
    ctx.close()
    assert ctx.closed and "closed" in repr(ctx)
    with pytest.raises(ntt.InvalidArgumentError, match="closed"):
        ctx.rescale(np.zeros((5, 16), np.uint64), 4)


def test_threads_share_a_context_and_run_their_own(rng):
    """One context used from several threads (its lock serializes them) and
    one context per thread give the serial results."""
    q = make_primes(64, 4, "mixed", rng)
    p = make_primes(64, 2, "mixed", rng, avoid=q)
    xs = [poly(rng, q, 64) for _ in range(8)]
    with ntt.rns.Context(64, q, p, dnum=2) as shared:
        key = key_for(shared, rng)
        want = [[a.tolist() for a in shared.keyswitch(x, 3, key)] for x in xs]
        got = [None] * len(xs)

        def work(i, ctx):
            for _ in range(5):
                got[i] = [a.tolist() for a in ctx.keyswitch(xs[i], 3, key)]

        own = [ntt.rns.Context(64, q, p, dnum=2) for _ in range(4)]
        threads = [threading.Thread(target=work, args=(i, shared if i % 2 else own[i // 2]))
                   for i in range(len(xs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for c in own:
            c.close()
    assert got == want


# ---- errors ---------------------------------------------------------------------------


def test_create_errors(rng):
    n = 16
    q = make_primes(n, 3, "top", rng)
    p = make_primes(n, 1, "top", rng, avoid=q)
    E = ntt.InvalidArgumentError
    M = ntt.ModulusError
    cases = [
        (E, dict(n=24), "power of two"),
        (E, dict(n=1), "power of two"),
        (E, dict(q=[]), "at least one"),
        (E, dict(dnum=0), "dnum"),
        (E, dict(dnum=4), "dnum"),
        (E, dict(threads=-1), "threads"),
        (E, dict(backend="nosuch"), "unknown backend"),
        (E, dict(q="abc"), "sequence of integers"),
        (M, dict(q=[q[0], q[1], q[0]]), "distinct"),
        (M, dict(p=[q[1]]), "distinct"),
        (M, dict(q=[4 * n + 1]), "not prime"),
        (M, dict(q=[ntt.find_prime(62, 5)]), r"2\^61"),
        (M, dict(q=[17]), "does not divide"),
        (E, dict(q=list(range(200)), p=list(range(60))), "256"),
        (ntt.UnsupportedError, dict(backend="cuda"), "CPU-only"),
    ]
    for exc, change, text in cases:
        args = dict(n=n, q=q, p=p, dnum=1)
        args.update(change)
        with pytest.raises(exc, match=text):
            ntt.rns.Context(**args)
    with pytest.raises(ntt.InvalidArgumentError, match="openmp"):
        ntt.rns.Context(n, q, p, backend="scalar", threads=2)
    if ntt.auto_backend() != "openmp":
        with pytest.raises(ntt.InvalidArgumentError, match="only openmp"):
            ntt.rns.Context(n, q, p, threads=2)
    with pytest.raises(ntt.ModulusError) as info:
        ntt.rns.Context(n, [4 * n + 1], p)
    assert info.value.status == ntt.Status.EMODULUS


class FakeDeviceArray:
    __cuda_array_interface__ = {"shape": (3, 16), "typestr": "<u8", "data": (0, False),
                                "version": 3}


def test_operation_errors(rng):
    n = 16
    q = make_primes(n, 5, "top", rng)
    p = make_primes(n, 2, "top", rng, avoid=q)
    ctx = ntt.rns.Context(n, q, p, dnum=2)   # alpha 3: digits (0, 3), (3, 2) at level 4
    x = poly(rng, ctx.primes, n)             # extended at level 4
    key = key_for(ctx, rng)
    ext = np.stack([ctx.modup(x[f:f + c], 4, j)
                    for j in range(2) for f, c in [ctx.digit_range(4, j)]])
    E = ntt.InvalidArgumentError
    out = np.full((7, n), 7, np.uint64)

    def untouched(exc, call, text):
        before = out.copy()
        with pytest.raises(exc, match=text):
            call()
        assert np.array_equal(out, before)

    # Shapes that belong to another level or digit.
    untouched(E, lambda: ctx.modup(x[3:5], 4, 0, out=out), r"shape \(2, 16\), expected \(3, 16\)")
    untouched(E, lambda: ctx.modup(x[3:5], 4, 1, out=out[:6]), r"out: shape \(6, 16\)")
    untouched(E, lambda: ctx.modup(x[3:5], 4, 2), "level 4 has 2 digit")
    untouched(E, lambda: ctx.modup(x[:2], 2, 1), "level 2 has 1 digit")
    untouched(E, lambda: ctx.moddown(x[:6], 4, out=out[:5]), r"expected \(7, 16\)")
    untouched(E, lambda: ctx.moddown(x, 3, out=out[:4]), r"expected \(6, 16\)")
    untouched(E, lambda: ctx.moddown(x, 5), "level = 5")
    untouched(E, lambda: ctx.rescale(x[:5], 0), "level 0")
    untouched(E, lambda: ctx.rescale(x[:5], 4, out=out[:5]), r"out: shape \(5, 16\)")
    untouched(E, lambda: ctx.ks_inner(ext[:1], 4, key, out=(out, out)), "2 digit")
    untouched(E, lambda: ctx.ks_inner(ext, 4, key[:1], out=(out, out)), "key")
    untouched(E, lambda: ctx.keyswitch(x[:4], 4, key, out=(out[:5], out[:5])), "level 4")
    untouched(E, lambda: ctx.keyswitch(x[:5], 4, key, out=(out[:5],)), "pair")
    untouched(E, lambda: ctx.key_check(key[:, :1]), "key")
    untouched(E, lambda: ctx.fastbconv(x[:2], [0, 1], [1, 2], out=out[:2]), "both")
    untouched(E, lambda: ctx.fastbconv(x[:2], [0, 0], [2], out=out[:1]), "twice")
    untouched(E, lambda: ctx.fastbconv(x[:2], [0, 7], [2], out=out[:1]), "0 .. L\\+K = 6")
    untouched(E, lambda: ctx.fastbconv(x[:2], [], [2], out=out[:1]), "at least one")
    untouched(E, lambda: ctx.forward(out[:2], [0, 1], out=out[1:3]), "overlap")
    # dtype, layout, writability, aliasing.
    untouched(ntt.DTypeError, lambda: ctx.rescale(x[:5].astype(np.int64), 4, out=out[:4]),
              "dtype int64")
    untouched(E, lambda: ctx.rescale(np.asfortranarray(x[:5]), 4, out=out[:4]), "C-contiguous")
    untouched(E, lambda: ctx.rescale(out[:5], 4, out=out[1:5]), "may start where x does")
    untouched(E, lambda: ctx.modup(out[3:5], 4, 1, out=out), "must not overlap x")
    untouched(E, lambda: ctx.keyswitch(x[:5], 4, key, out=(out[:5], out[1:6])),
              "must not overlap out\\[0\\]")
    ro = np.zeros((4, n), np.uint64)
    ro.flags.writeable = False
    untouched(E, lambda: ctx.rescale(x[:5], 4, out=ro), "read-only")
    untouched(ntt.UnsupportedError, lambda: ctx.rescale(FakeDeviceArray(), 2), "ntt_rns_cuda")
    # Words not below their prime: the library's NTT_ERANGE, the word named,
    # nothing written.
    bad = x.copy()
    bad[6, 9] = ctx.primes[6]
    untouched(ntt.RangeError, lambda: ctx.moddown(bad, 4, out=out[:5]),
              rf"x\[6, 9\] = {ctx.primes[6]} is not below")
    bad = x[:5].copy()
    bad[4, 15] = ctx.primes[4] + 1
    untouched(ntt.RangeError, lambda: ctx.keyswitch(bad, 4, key, out=(out[:5], out[:5] + 0)),
              r"x\[4, 15\]")
    untouched(ntt.RangeError, lambda: ctx.modup(bad[3:5], 4, 1, out=out), r"x\[1, 15\]")
    untouched(ntt.RangeError, lambda: ctx.rescale(bad, 4, out=out[:4]), r"x\[4, 15\]")
    untouched(ntt.RangeError, lambda: ctx.forward(bad[3:5], [3, 4], out=out[:2]), r"a\[1, 15\]")
    untouched(ntt.RangeError, lambda: ctx.fastbconv(bad[3:5], [3, 4], [0], out=out[:1]),
              r"x\[1, 15\]")
    bad_ext = ext.copy()
    bad_ext[1, 5, 0] = ctx.primes[5]
    untouched(ntt.RangeError, lambda: ctx.ks_inner(bad_ext, 4, key, out=(out, out + 0)),
              r"ext\[1, 5, 0\]")
    # Keys are not scanned by the key switch, only by key_check.
    bad_key = key.copy()
    bad_key[1, 0, 6, 3] = ctx.primes[6]
    ctx.keyswitch(x[:5], 4, bad_key)
    with pytest.raises(ntt.RangeError, match=r"key\[1, 0, 6, 3\]") as info:
        ctx.key_check(bad_key)
    assert info.value.status == ntt.Status.ERANGE
    ctx.close()

    # Without special primes there is no key switching.
    with ntt.rns.Context(n, q[:2]) as c2:
        for call in (lambda: c2.modup(x[:2], 1, 0), lambda: c2.moddown(x[:2], 1),
                     lambda: c2.keyswitch(x[:2], 1, key), lambda: c2.key_check(key),
                     lambda: c2.ks_inner(x[:2], 1, key)):
            with pytest.raises(E, match="no special primes"):
                call()
        assert c2.rescale(x[:2], 1).shape == (1, n)


def test_a_library_without_the_rns_module_is_an_import_error():
    code = ("import ntt._lib as lib; lib.rns_fns = None\n"
            "try:\n    import ntt.rns\nexcept ImportError as e:\n    print(e)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60, cwd=os.path.dirname(os.path.dirname(
                           os.path.abspath(__file__))))
    assert r.returncode == 0, r.stderr
    assert "has no RNS module (ntt_rns_create)" in r.stdout


@pytest.mark.parametrize("backend", CPU_BACKENDS)
def test_roots_follow_the_stated_rule(rng, backend):
    """ctx.roots: z^((q-1)/2N), z the smallest quadratic non-residue, and
    forward(x) on every limb gives its odd powers in bit-reversed order."""
    n = 16
    q = make_primes(n, 3, "mixed", rng)
    p = make_primes(n, 2, "mixed", rng, avoid=q)
    with ntt.rns.Context(n, q, p, dnum=2, backend=backend) as ctx:
        if ctx.roots is None:
            pytest.skip("this libntt has no ntt_rns_root")
        rule = []
        for prime in ctx.primes:
            z = 2
            while pow(z, (prime - 1) // 2, prime) != prime - 1:
                z += 1
            rule.append(pow(z, (prime - 1) // (2 * n), prime))
        assert ctx.roots == tuple(rule)
        x = np.zeros((len(ctx.primes), n), np.uint64)
        x[:, 1] = 1
        got = ctx.forward(x, list(range(len(ctx.primes))))
        bits = n.bit_length() - 1
        for t, (prime, r) in enumerate(zip(ctx.primes, ctx.roots)):
            brv = [int(format(k, f"0{bits}b")[::-1], 2) for k in range(n)]
            assert [int(v) for v in got[t]] == [pow(r, 2 * b + 1, prime) for b in brv]

"""ntt.field against plain Python integers: the presets, a random prime,
the transforms (naive DFT), coset, products, conversions, errors."""

import random

import numpy as np
import pytest
from sympy import isprime

import ntt
import ntt.field as nf


def _brv(k, bits):
    return int(format(k, f"0{bits}b")[::-1], 2) if bits else 0


def _dft(a, r, p, g=1, natural=False):
    n = len(a)
    bits = n.bit_length() - 1
    out = []
    for k in range(n):
        x = g * pow(r, k if natural else _brv(k, bits), p) % p
        out.append(sum(c * pow(x, i, p) for i, c in enumerate(a)) % p)
    return out


def _random_prime(bits, k, rnd):
    while True:
        c = rnd.getrandbits(bits - k) | (1 << (bits - k - 1))
        p = (c << k) + 1
        if p.bit_length() == bits and isprime(p):
            return p


@pytest.mark.parametrize("p", ["bn254-r", "bls12-381-r", "random"])
def test_transforms(p):
    rnd = random.Random(59)
    if p == "random":
        p = _random_prime(300, 20, rnd)
    with nf.Field(p) as F:
        q = F.p
        assert isprime(q)
        assert ((q - 1) >> F.two_adicity) & 1 == 1 and (q - 1) % (1 << F.two_adicity) == 0
        for natural in (False, True):
            for coset in (False, True):
                n = 16
                with F.plan(n, natural_order=natural, coset=coset) as plan:
                    assert pow(plan.root, n, q) == 1 and pow(plan.root, n // 2, q) != 1
                    a = [rnd.randrange(q) for _ in range(n)]
                    g = F.generator if coset else 1
                    spec = plan.forward(a)
                    assert spec == _dft(a, plan.root, q, g, natural)
                    assert plan.inverse(spec) == a
                    # arrays of words give the same words
                    arr = np.array([[(x >> (64 * j)) & ((1 << 64) - 1) for j in range(F.words)]
                                    for x in a], dtype=np.uint64)
                    sa = plan.forward(arr)
                    assert sa.shape == (n, F.words) and nf._to_ints(sa) == spec
                    b = [rnd.randrange(q) for _ in range(n)]
                    assert plan.pointwise(a, b) == [x * y % q for x, y in zip(a, b)]
                    lin = [0] * (2 * n - 1)
                    for i, x in enumerate(a):
                        for j, y in enumerate(b):
                            lin[i + j] = (lin[i + j] + x * y) % q
                    gn = pow(g, n, q)
                    cyc = [(lin[i] + (lin[i + n] * gn if i + n < 2 * n - 1 else 0)) % q
                           for i in range(n)]
                    assert plan.polymul(a, b) == cyc
                    assert plan.polymul_linear(a[:7], b[:9]) == [
                        sum(a[i] * b[k - i] for i in range(max(0, k - 8), min(k, 6) + 1)) % q
                        for k in range(15)]


def test_montgomery_and_errors():
    with nf.Field("bn254-r") as F:
        q, w = F.p, F.words
        x = [0, 1, q - 1, 12345]
        m = F.to_mont(x)
        assert m == [v * (1 << (64 * w)) % q for v in x]
        assert F.from_mont(m) == x
        with pytest.raises(ntt.RangeError):
            F.to_mont([q])
        with F.plan(8, montgomery=True) as plan:
            a, b = [3] * 8, [5] * 8
            assert F.from_mont(plan.pointwise(F.to_mont(a), F.to_mont(b))) == [15] * 8
        with pytest.raises(ntt.ModulusError):
            F.plan(1 << 29)
        with F.plan(8) as plan:
            with pytest.raises(ntt.RangeError):
                plan.forward([q] + [0] * 7)
            with pytest.raises(ntt.InvalidArgumentError):
                plan.forward([0] * 7)
    with pytest.raises(ntt.ModulusError):
        nf.Field((1 << 100) + 1)  # not prime
    with pytest.raises(ntt.ModulusError):
        nf.Field(2 ** 61 - 1)     # too small
    assert ntt.Field is nf.Field
    with nf.Field("bls12-381-p") as F:
        assert F.bits == 381 and F.two_adicity == 1
        with pytest.raises(ntt.ModulusError):
            F.plan(4)

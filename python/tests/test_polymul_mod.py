"""ntt.polymul_mod for any p < 2^63 against Kronecker products over Python
integers, schoolbook, and sympy's convolution_ntt where p is an NTT prime."""

import numpy as np
import pytest
from sympy import isprime
from sympy.discrete.convolutions import convolution_ntt

import ntt
from reference import evaluate, kronecker, ntt_prime, schoolbook

FIXED_MODULI = [
    2, 3, 4, 7340033, 998244353, 10 ** 9 + 7, 2 ** 32, 2 ** 61 - 1, 1337006139375617,
    4611685941117976577, 2 ** 62, 2 ** 63 - 25, 2 ** 63 - 1,
]


def random_modulus(rng):
    kind = int(rng.integers(5))
    if kind == 0:  # an NTT prime: the direct path
        return ntt_prime(int(rng.integers(30, 63)), 20, rng)
    if kind == 1:  # any number, prime or not
        return int(rng.integers(2, 1 << 63, dtype=np.uint64))
    if kind == 2:  # a small one
        return int(rng.integers(2, 1 << 16))
    p = int(rng.integers(1 << 40, 1 << 63, dtype=np.uint64)) | 1
    while not isprime(p):
        p += 2
    return p if p < 1 << 63 else 2 ** 63 - 25


def coeffs(rng, length, p):
    return rng.integers(0, p, size=length, dtype=np.uint64)


def lengths(rng):
    kind = int(rng.integers(4))
    if kind == 0:
        return int(rng.integers(1, 10)), int(rng.integers(1, 10))  # schoolbook sizes
    if kind == 1:
        return 1, int(rng.integers(1, 3000))
    return int(rng.integers(1, 3000)), int(rng.integers(1, 3000))


def test_fixed_moduli_against_kronecker(rng, cpu_backend):
    for p in FIXED_MODULI:
        for la, lb in ((1, 1), (1, 5), (9, 9), (257, 300), (1024, 1024)):
            a, b = coeffs(rng, la, p), coeffs(rng, lb, p)
            c = ntt.polymul_mod(a, b, p, backend=cpu_backend)
            assert c.dtype == np.uint64 and c.shape == (la + lb - 1,)
            assert c.tolist() == kronecker(a.tolist(), b.tolist(), p), (p, la, lb)


def test_random_moduli_and_lengths(rng):
    for _ in range(30):
        p = random_modulus(rng)
        la, lb = lengths(rng)
        a, b = coeffs(rng, la, p), coeffs(rng, lb, p)
        c = ntt.polymul_mod(a, b, p)
        assert c.tolist() == kronecker(a.tolist(), b.tolist(), p), (p, la, lb)
        if la * lb <= 4000:
            assert c.tolist() == schoolbook(a.tolist(), b.tolist(), p)


def test_top_coefficients(cpu_backend):
    """Every coefficient p-1: the largest possible sums of products."""
    for p in (2 ** 63 - 25, 2 ** 63 - 1, 4611685941117976577, 998244353):
        a = np.full(3000, p - 1, np.uint64)
        b = np.full(2000, p - 1, np.uint64)
        assert ntt.polymul_mod(a, b, p, backend=cpu_backend).tolist() == \
            kronecker(a.tolist(), b.tolist(), p)


def test_against_sympy_convolution_ntt(rng):
    for _ in range(6):
        la, lb = lengths(rng)
        p = ntt_prime(int(rng.integers(25, 63)), 13, rng)
        a, b = coeffs(rng, la, p), coeffs(rng, lb, p)
        expected = convolution_ntt(a.tolist(), b.tolist(), p)
        assert ntt.polymul_mod(a, b, p).tolist() == expected[:la + lb - 1]


def test_int_sequences_and_out(rng):
    p = 2 ** 61 - 1
    a = [int(v) for v in coeffs(rng, 100, p)]
    b = tuple(int(v) for v in coeffs(rng, 50, p))
    expected = kronecker(a, b, p)
    assert ntt.polymul_mod(a, b, p).tolist() == expected
    assert ntt.polymul_mod(np.array(a, np.uint64), b, p).tolist() == expected
    out = np.zeros(149, np.uint64)
    assert ntt.polymul_mod(a, b, p, out=out) is out and out.tolist() == expected
    assert ntt.polymul_mod([3], [5], np.uint64(7)).tolist() == [1]


def test_options_and_backends_agree(rng):
    p = 10 ** 18 + 9
    a, b = coeffs(rng, 3000, p), coeffs(rng, 2500, p)
    expected = kronecker(a.tolist(), b.tolist(), p)
    for backend in ["auto"] + [b for b in ntt.backends() if b != "cuda"]:
        for modmul in ("default", "barrett", "montgomery", "shoup", "naive"):
            assert ntt.polymul_mod(a, b, p, backend, modmul=modmul).tolist() == expected
    if ntt.backend_available("openmp"):
        assert ntt.polymul_mod(a, b, p, "openmp", threads=2).tolist() == expected
    ntt.cache_clear()
    assert ntt.polymul_mod(a, b, p).tolist() == expected


@pytest.mark.parametrize("p", [998244353, 2 ** 61 - 1, 2 ** 63 - 25])
def test_a_large_product(rng, p):
    """At 2^17 coefficients, checked at random points: c(x) = a(x) b(x) mod
    p (evaluation is a ring homomorphism; a wrong c passes with probability
    at most deg/p per point)."""
    n = 1 << 17
    a, b = coeffs(rng, n, p), coeffs(rng, n, p)
    c = ntt.polymul_mod(a, b, p).tolist()
    a, b = a.tolist(), b.tolist()
    xs = [int(x) for x in rng.integers(2, p, size=3, dtype=np.uint64)]
    assert evaluate(c, xs, p) == [u * v % p for u, v in zip(evaluate(a, xs, p),
                                                            evaluate(b, xs, p))]


@pytest.mark.parametrize("bits", [64, 65, 127, 256, 1024, 4096])
def test_big_modulus(bits):
    """p >= 2^63 through ntt_bigmod_polymul, against the Kronecker product."""
    rng = np.random.default_rng(bits)
    for p in (2 ** (bits - 1) + int(rng.integers(1, 1 << 30)), 2 ** bits):
        if p < 2 ** 63:
            continue
        la, lb = int(rng.integers(1, 200)), int(rng.integers(1, 60))
        a = [int.from_bytes(rng.bytes(bits // 8 + 8), "little") % p for _ in range(la)]
        b = [int.from_bytes(rng.bytes(bits // 8 + 8), "little") % p for _ in range(lb)]
        b[0] = p - 1
        assert ntt.polymul_mod(a, b, p) == kronecker(a, b, p)
    with pytest.raises(ntt.RangeError):
        ntt.polymul_mod([2 ** 64], [1], 2 ** 64)
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.polymul_mod([1], [1], 2 ** 64, out=np.zeros(1, np.uint64))


@pytest.mark.parametrize("bits", [1, 64, 2000, 3000, 200000])
def test_int_mul(bits):
    """ntt.int_mul against Python's product, both signs, all ones."""
    rng = np.random.default_rng(bits)
    x = int.from_bytes(rng.bytes(bits // 8 + 1), "little")
    y = int.from_bytes(rng.bytes(bits // 16 + 1), "little")
    assert ntt.int_mul(x, y) == x * y
    assert ntt.int_mul(-x, y) == -x * y
    ones = 2 ** bits - 1
    assert ntt.int_mul(ones, ones) == ones * ones
    assert ntt.int_mul(0, ones) == 0

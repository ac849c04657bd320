"""is_prime, find_prime, primitive_root and root_of_unity against sympy and
plain Python arithmetic."""

import numpy as np
import pytest
from sympy import isprime, primitive_root as sympy_primitive_root
from sympy.ntheory import factorint

import ntt


def test_is_prime_small_numbers():
    assert [n for n in range(200) if ntt.is_prime(n)] == [n for n in range(200) if isprime(n)]


def test_is_prime_random_and_hard(rng):
    hard = [2 ** 61 - 1, 2 ** 64 - 59, 2 ** 64 - 1, 3215031751, 3825123056546413051,
            318665857834031151167461, 2 ** 63 - 25, 4611685941117976577,
            1 << 63, (2 ** 32 - 5) * (2 ** 32 - 17), 341550071728321]
    hard = [n for n in hard if n < 1 << 64]
    randoms = [int(v) for v in rng.integers(0, (1 << 64) - 1, size=300, dtype=np.uint64,
                                            endpoint=True)]
    odd = [v | 1 for v in randoms]
    for n in hard + randoms + odd:
        assert ntt.is_prime(n) == isprime(n), n


def test_find_prime(rng):
    for _ in range(12):
        bits = int(rng.integers(14, 64))
        k = int(rng.integers(1, min(bits - 12, 40)))  # 2^12 candidates or more
        index = int(rng.integers(0, 3))
        p = ntt.find_prime(bits, k, index)
        # the index-th largest: count the candidates above it by hand
        assert p < 1 << bits and (p - 1) % (1 << k) == 0 and isprime(p)
        above = [q for q in range(p + (1 << k), 1 << bits, 1 << k) if isprime(q)]
        assert len(above) == index
    assert ntt.find_prime(62, 32) == 4611685941117976577
    # few primes below 2^24 have 2^20 | p-1: counted by hand, then one index too far
    friendly = [q for q in range(1 + (1 << 20), 1 << 24, 1 << 20) if isprime(q)]
    for index, q in enumerate(sorted(friendly, reverse=True)):
        assert ntt.find_prime(24, 20, index) == q
    with pytest.raises(ntt.InvalidArgumentError):
        ntt.find_prime(24, 20, len(friendly))


def test_primitive_root(rng):
    for p in [3, 5, 7, 17, 7340033, 998244353, 2 ** 61 - 1, 4611685941117976577]:
        g = ntt.primitive_root(p)
        assert g == sympy_primitive_root(p)
        assert all(pow(g, (p - 1) // q, p) != 1 for q in factorint(p - 1))


def test_root_of_unity(rng):
    for p in [7340033, 998244353, 4611685941117976577, 65537]:
        g = sympy_primitive_root(p)
        for order in (1, 2, 4, 64, 1 << 16, p - 1):
            if (p - 1) % order:
                continue
            w = ntt.root_of_unity(p, order)
            assert w == pow(g, (p - 1) // order, p)
            assert pow(w, order, p) == 1
            assert all(pow(w, order // q, p) != 1 for q in factorint(order))
    with pytest.raises(ntt.ModulusError):
        ntt.root_of_unity(15, 2)

"""Pure-Python references, written for clarity, sharing no code with libntt:
products by Kronecker substitution over Python's big integers and by
schoolbook, transforms by direct evaluation, and NTT-friendly primes found
with sympy's primality test."""

import sympy


def schoolbook(a, b, p):
    c = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            c[i + j] = (c[i + j] + int(x) * int(y)) % p
    return c


def kronecker(a, b, p):
    """The exact product of the integer polynomials a and b, reduced mod p:
    each packed into one big integer with room for every coefficient of the
    product, multiplied once, unpacked."""
    la, lb = len(a), len(b)
    top = max(max(map(int, a)), max(map(int, b)), 1)
    width = (2 * top.bit_length() + min(la, lb).bit_length()) // 8 + 1

    def pack(v):
        return int.from_bytes(b"".join(int(x).to_bytes(width, "little") for x in v), "little")

    raw = (pack(a) * pack(b)).to_bytes(width * (la + lb), "little")
    return [int.from_bytes(raw[i * width:(i + 1) * width], "little") % p
            for i in range(la + lb - 1)]


def fold(c, n, p, negacyclic):
    """c mod (x^n - 1), or mod (x^n + 1)."""
    out = [0] * n
    for i, v in enumerate(c):
        sign = -1 if negacyclic and (i // n) % 2 else 1
        out[i % n] = (out[i % n] + sign * v) % p
    return out


def evaluate(a, points, p):
    """a(x) mod p at each point, by Horner."""
    out = []
    for x in points:
        acc = 0
        for coef in reversed(a):
            acc = (acc * x + int(coef)) % p
        out.append(acc)
    return out


def bit_reverse(i, bits):
    return int(format(i, f"0{bits}b")[::-1], 2) if bits else 0


def ntt_prime(bits, log2_order, rng):
    """A random prime p < 2^bits with 2^log2_order | p-1; bits >= log2_order
    + 8 leaves 2^8 candidates or more, so that one is found quickly."""
    if bits < log2_order + 8:
        raise ValueError(f"too few candidates below 2^{bits} with 2^{log2_order} | p-1")
    step = 1 << log2_order
    for _ in range(100000):
        m = int(rng.integers(1, (1 << bits) // step))
        p = m * step + 1
        if p < 1 << bits and sympy.isprime(p):
            return p
    raise ValueError(f"no prime below 2^{bits} with 2^{log2_order} | p-1 found")


def distinct_ntt_primes(count, bits, log2_order, rng):
    primes = set()
    while len(primes) < count:
        primes.add(ntt_prime(bits, log2_order, rng))
    return sorted(primes)

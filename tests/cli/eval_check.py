"""eval_check.py IN OUT: OUT = a * b mod p for the course file IN, checked at a
random point x: A(x) B(x) == C(x) mod p (a wrong product passes with
probability below len(C)/p).  Exit 0 when it holds, 1 otherwise."""
import random
import sys


def horner(coeffs, x, p):
    acc = 0
    for c in reversed(coeffs):
        acc = (acc * x + c) % p
    return acc


def main():
    with open(sys.argv[1]) as f:
        tok = f.read().split()
    n, p = int(tok[0]), int(tok[1])
    a = [int(t) for t in tok[2:2 + n]]
    b = [int(t) for t in tok[2 + n:2 + 2 * n]]
    with open(sys.argv[2]) as f:
        c = [int(t) for t in f.read().split()]
    if len(c) != 2 * n - 1:
        print(f"eval_check: {len(c)} coefficients, expected {2 * n - 1}")
        return 1
    x = random.randrange(2, p)
    lhs = horner(a, x, p) * horner(b, x, p) % p
    rhs = horner(c, x, p)
    if lhs != rhs:
        print(f"eval_check: A(x) B(x) = {lhs}, C(x) = {rhs} at x = {x} (mod {p})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

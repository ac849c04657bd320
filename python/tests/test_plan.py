"""ntt.Plan against direct evaluation, Kronecker products and sympy's ntt /
intt / convolution_ntt (an independent implementation)."""

import numpy as np
import pytest
from sympy import primitive_root as sympy_primitive_root
from sympy.discrete.convolutions import convolution_ntt
from sympy.discrete.transforms import intt as sympy_intt
from sympy.discrete.transforms import ntt as sympy_ntt

import ntt
from reference import (bit_reverse, distinct_ntt_primes, evaluate, fold, kronecker, ntt_prime,
                       schoolbook)

WIDTH_BITS = {32: 30, 64: 62}


def random_case(rng, width, max_log, negacyclic=False, count=1):
    """(n, moduli) for a random size and `count` random primes that suit it."""
    log_n = int(rng.integers(1, max_log + 1))
    n = 1 << log_n
    order = log_n + 1 if negacyclic else log_n
    # at least 2^8 candidates m * 2^order + 1, so that primes are plentiful
    bits = int(rng.integers(order + 8, WIDTH_BITS[width] + 1))
    return n, distinct_ntt_primes(count, bits, order, rng)


def random_coeffs(rng, shape, moduli, dtype):
    """Coefficients below each item's modulus (item i: moduli[i % len])."""
    shape = tuple(np.atleast_1d(shape))
    rows = int(np.prod(shape[:-1], dtype=np.int64))
    bounds = np.resize(np.array(moduli, dtype=np.uint64), rows).reshape(shape[:-1] + (1,))
    return (rng.integers(0, 1 << 62, size=shape, dtype=np.uint64) % bounds).astype(dtype)


def root_of(plan):
    """The root a natural-order plan evaluates at: its forward transform of
    x (the coefficient vector (0, 1, 0, ...)) starts with it (psi for a
    negacyclic plan, w = 1^(1/n) for a cyclic one: x at index 1)."""
    x = np.zeros(plan.n, plan.dtype)
    x[1] = 1
    spec = [int(v) for v in plan.forward(x)]
    return spec[0] if plan.negacyclic else spec[1 % plan.n]


def points(plan, p, root):
    n = plan.n
    return [pow(root, 2 * k + 1, p) for k in range(n)] if plan.negacyclic else \
        [pow(root, k, p) for k in range(n)]


def has_order(x, order, p):
    return pow(x, order, p) == 1 and (order == 1 or pow(x, order // 2, p) == p - 1)


@pytest.mark.parametrize("negacyclic", [False, True])
@pytest.mark.parametrize("width", [32, 64])
def test_forward_is_evaluation_at_a_primitive_root(rng, cpu_backend, width, negacyclic):
    for _ in range(4):
        n, (p,) = random_case(rng, width, 7, negacyclic)
        with ntt.Plan(n, p, width=width, negacyclic=negacyclic, natural_order=True,
                      backend=cpu_backend) as plan:
            root = root_of(plan)
            assert has_order(root, 2 * n if negacyclic else n, p)
            a = random_coeffs(rng, n, [p], plan.dtype)
            assert plan.forward(a).tolist() == evaluate(a.tolist(), points(plan, p, root), p)


def sympy_view(plan, p, root):
    """(twist, index): the plan's natural-order spectrum of a is
    sympy.ntt(a_j * twist^j)[index[k]] at each k.  sympy evaluates at the
    powers of rt = g^((p-1)/n), g the smallest primitive root; the plan at
    w = root (cyclic) or root^2 (negacyclic, after the twist by root), and
    w = rt^e for one odd e."""
    n = plan.n
    rt = pow(sympy_primitive_root(p), (p - 1) // n, p)
    w = pow(root, 2, p) if plan.negacyclic else root
    e = next(e for e in range(n) if pow(rt, e, p) == w)
    return (root if plan.negacyclic else 1), [(e * k) % n for k in range(n)]


@pytest.mark.parametrize("negacyclic", [False, True])
@pytest.mark.parametrize("width", [32, 64])
def test_forward_and_inverse_against_sympy(rng, width, negacyclic):
    for _ in range(4):
        n, (p,) = random_case(rng, width, 11, negacyclic)
        with ntt.Plan(n, p, width=width, negacyclic=negacyclic, natural_order=True) as plan:
            twist, index = sympy_view(plan, p, root_of(plan))
            a = random_coeffs(rng, n, [p], plan.dtype)
            twisted = [int(x) * pow(twist, j, p) % p for j, x in enumerate(a.tolist())]
            expected = sympy_ntt(twisted, p)
            assert plan.forward(a).tolist() == [expected[i] for i in index]

            # inverse: the spectrum s put back in sympy's order, sympy's
            # intt, the twist undone.
            s = random_coeffs(rng, n, [p], plan.dtype).tolist()
            in_sympy_order = [0] * n
            for k, i in enumerate(index):
                in_sympy_order[i] = s[k]
            untwist = pow(twist, p - 2, p)
            x = [v * pow(untwist, j, p) % p for j, v in enumerate(sympy_intt(in_sympy_order, p))]
            assert plan.inverse(np.array(s, plan.dtype)).tolist() == x


@pytest.mark.parametrize("negacyclic", [False, True])
def test_default_spectra_are_bit_reversed(rng, cpu_backend, negacyclic):
    for width in (32, 64):
        n, (p,) = random_case(rng, width, 10, negacyclic)
        bits = n.bit_length() - 1
        a = random_coeffs(rng, n, [p], ntt._arrays.DTYPES[width])
        with ntt.Plan(n, p, width, negacyclic, backend=cpu_backend) as br, \
                ntt.Plan(n, p, width, negacyclic, natural_order=True,
                         backend=cpu_backend) as nat:
            natural = nat.forward(a)
            spectrum = br.forward(a)
            assert spectrum.tolist() == [int(natural[bit_reverse(i, bits)]) for i in range(n)]
            assert br.inverse(spectrum).tolist() == a.tolist()
            assert nat.inverse(natural).tolist() == a.tolist()


@pytest.mark.parametrize("natural_order", [False, True])
@pytest.mark.parametrize("negacyclic", [False, True])
@pytest.mark.parametrize("width", [32, 64])
def test_polymul_and_pointwise(rng, cpu_backend, width, negacyclic, natural_order):
    for _ in range(3):
        n, (p,) = random_case(rng, width, 9, negacyclic)
        with ntt.Plan(n, p, width=width, negacyclic=negacyclic, natural_order=natural_order,
                      backend=cpu_backend) as plan:
            a = random_coeffs(rng, n, [p], plan.dtype)
            b = random_coeffs(rng, n, [p], plan.dtype)
            expected = fold(kronecker(a.tolist(), b.tolist(), p), n, p, negacyclic)
            assert plan.polymul(a, b).tolist() == expected
            if n <= 64:
                assert expected == fold(schoolbook(a.tolist(), b.tolist(), p), n, p, negacyclic)
            # the product by hand: forward, pointwise, inverse
            fa, fb = plan.forward(a), plan.forward(b)
            prod = plan.pointwise(fa, fb)
            assert prod.tolist() == [x * y % p for x, y in zip(fa.tolist(), fb.tolist())]
            assert plan.inverse(prod).tolist() == expected


def test_polymul_against_sympy_convolution(rng):
    for negacyclic in (False, True):
        for width in (32, 64):
            # sympy pads the product to 2n: 2n | p-1 (as negacyclic plans need)
            n, (p,) = random_case(rng, width, 12, negacyclic=True)
            a = random_coeffs(rng, n, [p], ntt._arrays.DTYPES[width])
            b = random_coeffs(rng, n, [p], a.dtype)
            linear = convolution_ntt(a.tolist(), b.tolist(), p)
            with ntt.Plan(n, p, width=width, negacyclic=negacyclic) as plan:
                assert plan.polymul(a, b).tolist() == fold(linear, n, p, negacyclic)


@pytest.mark.parametrize("width", [32, 64])
def test_polymul_linear(rng, cpu_backend, width):
    for _ in range(6):
        n, (p,) = random_case(rng, width, 10, negacyclic=True)  # 2n | p-1 serves both
        la = int(rng.integers(1, n + 1))
        lb = int(rng.integers(1, n - la + 2))
        a = random_coeffs(rng, la, [p], ntt._arrays.DTYPES[width])
        b = random_coeffs(rng, lb, [p], a.dtype)
        with ntt.Plan(n, p, width=width, negacyclic=bool(rng.integers(2)),
                      backend=cpu_backend) as plan:
            c = plan.polymul_linear(a, b)
            assert c.dtype == plan.dtype and c.shape == (la + lb - 1,)
            assert c.tolist() == kronecker(a.tolist(), b.tolist(), p)
            if lb > 1 and p < 1 << 62 and (p - 1) % (1 << (la + lb - 2).bit_length()) == 0:
                assert c.tolist() == convolution_ntt(a.tolist(), b.tolist(), p)
            out = np.full(la + lb - 1, 7, plan.dtype)
            assert plan.polymul_linear(a.tolist(), b.tolist(), out=out) is out
            assert out.tolist() == c.tolist()


@pytest.mark.parametrize("negacyclic", [False, True])
@pytest.mark.parametrize("width", [32, 64])
def test_rns_batches_use_modulus_i_mod_count(rng, cpu_backend, width, negacyclic):
    """Rows are items; item i uses moduli[i % count]; leading axes flatten."""
    for count, polys in ((1, 3), (3, 2), (4, 1)):
        n, moduli = random_case(rng, width, 8, negacyclic, count)
        shape = (polys, count, n)
        a = random_coeffs(rng, shape, moduli, ntt._arrays.DTYPES[width])
        b = random_coeffs(rng, shape, moduli, a.dtype)
        with ntt.Plan(n, moduli, width=width, negacyclic=negacyclic,
                      backend=cpu_backend) as plan:
            c = plan.polymul(a, b)
            assert c.shape == shape
            spectra = plan.forward(a.reshape(polys * count, n))
            assert spectra.shape == (polys * count, n)
            for k in range(polys):
                for i, q in enumerate(moduli):
                    expected = fold(kronecker(a[k, i].tolist(), b[k, i].tolist(), q), n, q,
                                    negacyclic)
                    assert c[k, i].tolist() == expected
                    with ntt.Plan(n, q, width=width, negacyclic=negacyclic,
                                  backend=cpu_backend) as single:
                        assert spectra[k * count + i].tolist() == \
                            single.forward(a[k, i]).tolist()
            back = plan.inverse(spectra)
            assert back.reshape(shape).tolist() == a.tolist()
            prod = plan.pointwise(spectra, plan.forward(b.reshape(polys * count, n)))
            assert plan.inverse(prod).reshape(shape).tolist() == c.tolist()


def test_empty_batch_is_a_no_op(rng):
    with ntt.Plan(16, 97, width=32) as plan:
        empty = np.zeros((0, 16), np.uint32)
        assert plan.forward(empty).shape == (0, 16)
        assert plan.polymul(empty, empty).shape == (0, 16)


def test_in_place_and_out(rng):
    n, (p,) = random_case(rng, 64, 8)
    with ntt.Plan(n, p) as plan:
        a = random_coeffs(rng, (2, n), [p], np.uint64)
        b = random_coeffs(rng, (2, n), [p], np.uint64)
        keep_a, keep_b = a.copy(), b.copy()
        spectrum = plan.forward(a)
        assert spectrum is not a and a.tolist() == keep_a.tolist()

        out = np.empty_like(a)
        assert plan.forward(a, out) is out and out.tolist() == spectrum.tolist()
        assert plan.forward(a, out=a) is a and a.tolist() == spectrum.tolist()
        assert plan.inverse(a, inplace=True) is a and a.tolist() == keep_a.tolist()

        product = plan.polymul(a, b)
        assert a.tolist() == keep_a.tolist() and b.tolist() == keep_b.tolist()
        assert plan.polymul(a, b, out=b) is b and b.tolist() == product.tolist()
        b[:] = keep_b
        assert plan.polymul(a, b, inplace=True) is a and a.tolist() == product.tolist()
        a[:] = keep_a
        assert plan.polymul(a, a).tolist() == plan.polymul(keep_a, keep_a).tolist()

        fa, fb = plan.forward(keep_a), plan.forward(keep_b)
        expected = plan.pointwise(fa, fb)
        assert plan.pointwise(fa, fb, inplace=True) is fa and fa.tolist() == expected.tolist()


def test_sequences_are_accepted_out_of_place(rng):
    with ntt.Plan(8, 17, width=32, natural_order=True) as plan:
        a = [1, 2, 3, 4, 5, 6, 7, 16]
        spectrum = plan.forward(a)
        assert spectrum.dtype == np.uint32
        assert spectrum.tolist() == plan.forward(np.array(a, np.uint32)).tolist()
        assert plan.polymul([a, a], [a, a]).shape == (2, 8)


def test_modmul_variants_and_threads_agree(rng):
    n, (p,) = random_case(rng, 64, 10, negacyclic=True)
    a = random_coeffs(rng, (3, n), [p], np.uint64)
    b = random_coeffs(rng, (3, n), [p], np.uint64)
    results = set()
    for modmul in ("naive", "barrett", "montgomery", "shoup", "default"):
        for backend in ntt.backends():
            if backend == "cuda":
                continue
            threads = 2 if backend == "openmp" else 0
            with ntt.Plan(n, p, negacyclic=True, backend=backend, modmul=modmul,
                          threads=threads) as plan:
                assert plan.threads == threads
                if modmul != "default":
                    assert plan.modmul == modmul
                results.add(plan.polymul(a, b).tobytes())
    assert len(results) == 1


def test_widths_agree(rng):
    n, (p,) = random_case(rng, 32, 10, negacyclic=True)
    a = random_coeffs(rng, n, [p], np.uint64)
    b = random_coeffs(rng, n, [p], np.uint64)
    with ntt.Plan(n, p, width=32, negacyclic=True) as p32, \
            ntt.Plan(n, p, width=64, negacyclic=True) as p64:
        assert p32.dtype == np.uint32 and p64.dtype == np.uint64
        assert p32.forward(a.astype(np.uint32)).tolist() == p64.forward(a).tolist()
        assert p32.polymul(a.astype(np.uint32), b.astype(np.uint32)).tolist() == \
            p64.polymul(a, b).tolist()


def test_attributes_repr_and_close():
    q = [ntt.find_prime(50, 12, i) for i in range(3)]
    plan = ntt.Plan(1024, q, negacyclic=True, backend="scalar", modmul="barrett")
    assert (plan.n, plan.moduli, plan.width, plan.negacyclic, plan.natural_order) == \
        (1024, tuple(q), 64, True, False)
    assert plan.backend == "scalar" and plan.modmul == "barrett"
    assert "n=1024" in repr(plan) and "closed" not in repr(plan)
    plan.close()
    assert plan.closed and "closed" in repr(plan)
    plan.close()
    with pytest.raises(ntt.InvalidArgumentError, match="closed"):
        plan.forward(np.zeros(1024, np.uint64))
    with ntt.Plan(8, 17) as plan:
        assert not plan.closed
    assert plan.closed


def test_auto_backend_is_resolved():
    with ntt.Plan(64, 193) as plan:
        assert plan.backend == ntt.auto_backend()
        assert plan.backend in ntt.backends()


def test_a_large_transform_round_trip(rng):
    n = 1 << 16
    p = ntt_prime(60, 17, rng)
    a = random_coeffs(rng, n, [p], np.uint64)
    with ntt.Plan(n, p, negacyclic=True) as plan:
        assert plan.inverse(plan.forward(a)).tolist() == a.tolist()


def _rule_root(p, order):
    """ntt.h's rule, from scratch: z^((p-1)/order), z the smallest quadratic
    non-residue (Euler's criterion)."""
    z = 2
    while pow(z, (p - 1) // 2, p) != p - 1:
        z += 1
    return pow(z, (p - 1) // order, p)


@pytest.mark.parametrize("negacyclic", [False, True])
@pytest.mark.parametrize("natural_order", [False, True])
def test_roots_follow_the_stated_rule(rng, negacyclic, natural_order):
    """plan.roots against the rule, and forward(x) against its powers."""
    if ntt.Plan(4, 17).roots is None:
        pytest.skip("this libntt has no ntt_plan_root")
    for width in (32, 64):
        n, moduli = random_case(rng, width, 8, negacyclic, count=3)
        order = 2 * n if negacyclic else n
        plan = ntt.Plan(n, moduli, width=width, negacyclic=negacyclic,
                        natural_order=natural_order)
        assert plan.roots == tuple(_rule_root(p, order) for p in moduli)
        x = np.zeros((len(moduli), n), plan.dtype)
        x[:, 1 % n] = 1
        got = plan.forward(x)
        logn = n.bit_length() - 1
        for i, (p, r) in enumerate(zip(moduli, plan.roots)):
            ks = range(n) if natural_order else (bit_reverse(k, logn) for k in range(n))
            want = [pow(r, 2 * k + 1 if negacyclic else k, p) for k in ks]
            assert [int(v) for v in got[i]] == want

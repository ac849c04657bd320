"""Every integer that crosses into C is range-checked first (issue 62.4):
ctypes truncates a Python int to the C type without a word (2**32 + 1 as a
c_int is 1), so each integer option is tried at 2^31, 2^32, 2^63, 2^64,
2^64 + 1 and -1, with its valid neighbours where they exist.  Every value
out of the C type's range, or of the option's own, must raise ValueError
(ntt.InvalidArgumentError and ntt.ModulusError are ValueErrors) or
OverflowError; never be accepted as another value."""

import numpy as np
import pytest

import ntt
import ntt.rns

BIG = [2**31, 2**32, 2**32 + 1, 2**63, 2**64, 2**64 + 1]
ALL = BIG + [-1, -(2**63), -(2**64)]
P = 7340033  # 7 * 2^20 + 1


def refused(call):
    with pytest.raises((ValueError, OverflowError)):
        call()


@pytest.mark.parametrize("v", ALL)
def test_plan_threads(v):
    refused(lambda: ntt.Plan(16, P, threads=v))


@pytest.mark.parametrize("v", ALL)
def test_plan_batch(v):
    # batch (items a CUDA plan stages per host call) may be up to 2^40 / n:
    # within that it is kept as given, never wrapped; beyond it, refused.
    if 0 <= v <= 2**40 // 16:
        with ntt.Plan(16, P, batch=v) as plan:
            assert plan.batch == v
    else:
        refused(lambda: ntt.Plan(16, P, batch=v))


@pytest.mark.parametrize("v", ALL)
def test_plan_n_width_moduli(v):
    refused(lambda: ntt.Plan(v, P))
    refused(lambda: ntt.Plan(16, P, width=v))
    refused(lambda: ntt.Plan(16, v))
    refused(lambda: ntt.Plan(16, [P, v]))


def test_plan_threads_in_range_is_kept():
    with ntt.Plan(16, P, threads=2**31 - 1) as plan:
        assert plan.threads == 2**31 - 1


@pytest.mark.parametrize("v", ALL)
def test_polymul_mod_threads_and_p(v):
    refused(lambda: ntt.polymul_mod([1, 2], [3, 4], P, threads=v))
    if not 2 <= v:
        refused(lambda: ntt.polymul_mod([1, 2], [3, 4], v))
    elif v < 2**63:
        assert ntt.polymul_mod([1, 2], [3, 4], v).tolist() == [3, 10, 8]
    else:  # a big modulus: a list of Python ints (ntt_bigmod_polymul)
        assert ntt.polymul_mod([1, 2], [3, 4], v) == [3, 10, 8]


@pytest.mark.parametrize("v", ALL)
def test_polymul_mod_coefficients(v):
    # Sequences of Python ints become uint64 arrays: out of [0, p) is an
    # error, never a wrapped coefficient.
    refused(lambda: ntt.polymul_mod([1, v], [3, 4], P))


@pytest.fixture(scope="module")
def ctx():
    q = [ntt.find_prime(40, 6, i) for i in range(3)]
    p = [ntt.find_prime(41, 6, 0)]
    with ntt.rns.Context(16, q, p, dnum=2, backend="scalar") as c:
        yield c


@pytest.mark.parametrize("v", ALL)
def test_rns_context_options(v):
    q = [ntt.find_prime(40, 6, i) for i in range(3)]
    refused(lambda: ntt.rns.Context(16, q, threads=v))
    refused(lambda: ntt.rns.Context(v, q))
    refused(lambda: ntt.rns.Context(16, q, dnum=v))
    refused(lambda: ntt.rns.Context(16, q[:2] + [v]))
    refused(lambda: ntt.rns.Context(16, q, [v]))


@pytest.mark.parametrize("v", ALL)
def test_rns_levels_digits_limbs(ctx, v):
    x = np.zeros((1, 16), np.uint64)
    refused(lambda: ctx.digits(v))
    refused(lambda: ctx.digit_range(v, 0))
    refused(lambda: ctx.digit_range(1, v))
    refused(lambda: ctx.forward(x, [v]))
    refused(lambda: ctx.fastbconv(x, [v], [1]))
    refused(lambda: ctx.rescale(np.zeros((2, 16), np.uint64), v))


@pytest.mark.parametrize("v", ALL)
def test_number_theory(v):
    if 0 <= v < 2**64:
        # In range: answered for v itself (none of these is prime).
        assert ntt.is_prime(v) is False
    else:
        refused(lambda: ntt.is_prime(v))
    refused(lambda: ntt.primitive_root(v))
    refused(lambda: ntt.root_of_unity(P, v))
    refused(lambda: ntt.find_prime(v, 10))
    refused(lambda: ntt.find_prime(40, v))
    if v >= 2**32 or v < 0:
        refused(lambda: ntt.find_prime(40, 10, v))

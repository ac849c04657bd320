"""Shared fixtures: the package from this source tree, a seeded generator
(NTT_TEST_SEED=<seed> replays a run), and the GPU marker."""

import os
import random
import sys
import zlib

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import ntt  # noqa: E402

SEED = int(os.environ.get("NTT_TEST_SEED") or random.SystemRandom().randrange(1 << 32))


def pytest_report_header(config):
    return [f"ntt: library {ntt.library_path()} (found via {ntt.library_origin()}), "
            f"backends {ntt.backends()}",
            f"ntt: seed {SEED} (replay with NTT_TEST_SEED={SEED})"]


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA device (CuPy or PyTorch)")


@pytest.fixture
def rng(request):
    """A generator seeded by the run's seed and the test's name, so one
    failing test replays on its own."""
    seed = (SEED + zlib.crc32(request.node.nodeid.encode())) % (1 << 32)
    print(f"rng seed {seed} (run seed {SEED})")
    return np.random.default_rng(seed)


CPU_BACKENDS = [b for b in ntt.backends() if b != "cuda"]


@pytest.fixture(params=CPU_BACKENDS)
def cpu_backend(request):
    return request.param

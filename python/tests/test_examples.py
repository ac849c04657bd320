"""The examples in examples/python run and verify their own results (small
sizes here); the CuPy one exits 77 where it has no GPU to run on."""

import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                        "python")


@pytest.mark.parametrize("script, args, verdict", [
    ("product_large.py", ["12"], "check c(x) == a(x) b(x) at a random x: ok"),
    ("product_large.py", ["10", "1000000007"], "at a random x: ok"),
    ("rns_negacyclic.py", ["8"], "limbs against the product over the integers: ok"),
    ("rns_negacyclic_cupy.py", ["10"], "match the CPU plan's"),
    ("ckks_keyswitch.py", ["6"], "d s^2 + e within it: ok"),
])
def test_example(script, args, verdict):
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, script)] + args,
                       capture_output=True, text=True, timeout=300)
    if r.returncode == 77:
        pytest.skip(r.stdout.strip())
    assert r.returncode == 0, r.stdout + r.stderr
    assert verdict in r.stdout

"""Where the package finds libntt (NTT_LIBRARY, its own copy, the system
loader, in that order), that it says which one it loaded, and that
`pip install` of the package works offline without build isolation."""

import os
import shutil
import subprocess
import sys

import pytest

import ntt

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT = "import ntt; print(ntt.library_origin()); print(ntt.library_path())"


def run(code, env_extra, cwd):
    """code in a fresh interpreter; the loader path (LD_LIBRARY_PATH) is
    kept, since a CUDA build's libntt may need it for the CUDA runtime."""
    env = {k: v for k, v in os.environ.items() if k not in ("NTT_LIBRARY", "PYTHONPATH")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def package_copy(tmp_path, with_library):
    """The ntt package copied under tmp_path/site, optionally with libntt."""
    site = tmp_path / "site"
    shutil.copytree(os.path.join(PACKAGE_DIR, "ntt"), site / "ntt",
                    ignore=shutil.ignore_patterns("__pycache__", "libntt*"))
    if with_library:
        shutil.copy(ntt.library_path(), site / "ntt" / "libntt.so.0")
    return site


def loads(result):
    assert result.returncode == 0, result.stderr
    origin, path = result.stdout.split()
    return origin, path


def test_library_is_reported():
    assert ntt.__library__ == ntt.library_path()
    assert os.path.isfile(ntt.library_path())
    assert ntt.library_origin() in ("NTT_LIBRARY", "package", "system")


def test_environment_variable_first(tmp_path):
    site = package_copy(tmp_path, with_library=True)
    lib = ntt.library_path()
    origin, path = loads(run(REPORT, {"PYTHONPATH": str(site), "NTT_LIBRARY": lib}, tmp_path))
    assert (origin, path) == ("NTT_LIBRARY", os.path.realpath(lib))
    # a directory holding libntt.so.0 will do too
    libdir = tmp_path / "lib"
    libdir.mkdir()
    shutil.copy(lib, libdir / "libntt.so.0")
    origin, path = loads(run(REPORT, {"PYTHONPATH": str(site), "NTT_LIBRARY": str(libdir)},
                             tmp_path))
    assert (origin, path) == ("NTT_LIBRARY", str(libdir / "libntt.so.0"))


def test_relative_environment_variable_is_made_absolute(tmp_path):
    # NTT_LIBRARY=build/libntt.so from the source root must still hold in a
    # subprocess that runs elsewhere.
    site = package_copy(tmp_path, with_library=False)
    libdir = tmp_path / "lib"
    libdir.mkdir()
    shutil.copy(ntt.library_path(), libdir / "libntt.so.0")
    code = REPORT + "; import os; print(os.environ['NTT_LIBRARY'])"
    result = run(code, {"PYTHONPATH": str(site), "NTT_LIBRARY": "lib/libntt.so.0"}, tmp_path)
    origin, path, env = loads3(result)
    assert (origin, path, env) == ("NTT_LIBRARY", str(libdir / "libntt.so.0"),
                                   str(libdir / "libntt.so.0"))


def loads3(result):
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_bad_environment_variable_is_an_error(tmp_path):
    site = package_copy(tmp_path, with_library=True)
    for bad in (str(tmp_path / "missing.so"), str(tmp_path)):
        result = run(REPORT, {"PYTHONPATH": str(site), "NTT_LIBRARY": bad}, tmp_path)
        assert result.returncode != 0
        assert "ImportError" in result.stderr and "NTT_LIBRARY" in result.stderr


def test_package_copy_before_the_system(tmp_path):
    site = package_copy(tmp_path, with_library=True)
    origin, path = loads(run(REPORT, {"PYTHONPATH": str(site)}, tmp_path))
    assert (origin, path) == ("package", str(site / "ntt" / "libntt.so.0"))


def test_system_loader_path_last(tmp_path):
    site = package_copy(tmp_path, with_library=False)
    libdir = tmp_path / "lib"
    libdir.mkdir()
    shutil.copy(ntt.library_path(), libdir / "libntt.so.0")
    search = os.pathsep.join(filter(None, [str(libdir), os.environ.get("LD_LIBRARY_PATH")]))
    origin, path = loads(run(REPORT, {"PYTHONPATH": str(site), "LD_LIBRARY_PATH": search},
                             tmp_path))
    assert (origin, path) == ("system", str(libdir / "libntt.so.0"))


def system_has_libntt(tmp_path):
    """Whether a fresh interpreter's loader finds a libntt (in this process
    the one already loaded would answer for its soname)."""
    probe = ("import ctypes, ctypes.util, sys\n"
             "for name in ('libntt.so.0', 'libntt.so'):\n"
             "    try:\n        ctypes.CDLL(name); sys.exit(0)\n"
             "    except OSError:\n        pass\n"
             "sys.exit(0 if ctypes.util.find_library('ntt') else 1)\n")
    return run(probe, {}, tmp_path).returncode == 0


def test_missing_library_is_a_clear_import_error(tmp_path):
    if system_has_libntt(tmp_path):
        pytest.skip("the system loader finds a libntt here")
    site = package_copy(tmp_path, with_library=False)
    result = run(REPORT, {"PYTHONPATH": str(site)}, tmp_path)
    assert result.returncode != 0
    assert "ImportError: ntt: libntt was not found" in result.stderr
    assert "NTT_LIBRARY" in result.stderr


def test_pip_install_offline_without_build_isolation(tmp_path):
    for module in ("pip", "setuptools"):
        if run(f"import {module}", {}, tmp_path).returncode != 0:
            pytest.skip(f"{module} is not installed for {sys.executable}")
    src = tmp_path / "src"
    shutil.copytree(PACKAGE_DIR, src, ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info", "libntt*", ".pytest_cache"))
    shutil.copy(ntt.library_path(), src / "ntt" / "libntt.so.0")
    target = tmp_path / "installed"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation",
                          "--no-index", "--no-deps", "--no-cache-dir", "--target",
                          str(target), str(src)], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    code = REPORT + "; print(ntt.polymul_mod([1, 2], [3, 4], 5).tolist())"
    result = run(code, {"PYTHONPATH": str(target)}, tmp_path)
    assert result.returncode == 0, result.stderr
    origin, path, product = result.stdout.split("\n")[:3]
    assert origin == "package" and path == str(target / "ntt" / "libntt.so.0")
    assert product == "[3, 0, 3]"


def test_package_version_is_the_library_s():
    major, minor, patch = (int(v) for v in ntt.__version__.split("."))
    from ntt import _lib
    assert _lib.version_code == major * 10000 + minor * 100 + patch


def test_library_version_is_checked():
    # The package refuses libntt before 0.2 (another ntt_plan_options layout).
    from ntt import _lib
    assert _lib.version_code >= 200

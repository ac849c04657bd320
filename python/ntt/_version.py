"""The package's version: libntt's (CMakeLists.txt's project VERSION), which
the build checks at configure time (python/CMakeLists.txt) and the tests
against the loaded library (tests/test_loading.py).  pyproject.toml reads it
from here."""

__version__ = "0.2.0"

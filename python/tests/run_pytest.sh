#!/bin/sh
# run_pytest.sh PYTHON LIBRARY [pytest arguments]: the package's tests with
# interpreter PYTHON against the libntt at LIBRARY (through NTT_LIBRARY).
# Exits 77 (ctest's SKIPPED) only when PYTHON lacks numpy or pytest.
python=$1
lib=$2
shift 2
if ! "$python" -c "import numpy, pytest" 2>/dev/null; then
  echo "SKIPPED: $python has no numpy or pytest (scripts/deps.sh installs python3-numpy python3-pytest)"
  exit 77
fi
if ! "$python" -c "import sympy" 2>/dev/null; then
  echo "error: $python has no sympy, the tests' independent reference (apt-get install python3-sympy)" >&2
  exit 1
fi
cd "$(dirname "$0")/.." || exit 1
export NTT_LIBRARY="$lib" PYTHONDONTWRITEBYTECODE=1
exec "$python" -m pytest -p no:cacheprovider -q -rs "$@"

#!/bin/sh
# install_test.sh BUILD_DIR SOURCE_DIR [CC]: installs BUILD_DIR into a fresh
# prefix, checks that the installed `ntt` loads neither GMP, FLINT nor NTL,
# and builds programs against the package with CC, the compiler that built
# the library (the static library's OpenMP calls need that compiler's
# runtime: libgomp for GCC, libomp for clang): consumer.c with pkg-config
# and with find_package, the README's first program (its first C block)
# with pkg-config, the examples/ folder on its own (find_package), whose
# programs check their own results, and the Python package's documented
# install routes (python/README.md) with PYTHON (default: Debian's
# /usr/bin/python3): pip into a fresh virtual environment made with
# --system-site-packages, and pip --target DIR --no-deps, both offline
# without build isolation, each importing the package against the
# installed libntt and checking its version against the library's.
set -eu
build=$1
src=$2
cc=${3:-cc}
python=${4:-}
if [ -z "$python" ]; then
  if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for f in include/ntt.h share/doc/ntt/LICENSE lib/pkgconfig/ntt.pc lib/cmake/ntt/nttConfig.cmake lib/libntt.a lib/libntt.so; do
  # Debian's GNUInstallDirs may use a multiarch libdir.
  [ -e "$work/prefix/$f" ] || ls "$work/prefix"/lib*/*/"${f#lib/}" >/dev/null 2>&1 ||
    ls "$work/prefix"/lib*/"${f#lib/}" >/dev/null 2>&1 || { echo "missing after install: $f"; exit 1; }
done

# The command is libntt's alone: the benchmark libraries stay with ntt-bench.
if [ -x "$work/prefix/bin/ntt" ]; then
  deps=$(ldd "$work/prefix/bin/ntt")
  echo "$deps"
  if echo "$deps" | grep -E 'lib(gmp|flint|ntl)[.-]'; then
    echo "the installed ntt loads GMP, FLINT or NTL"
    exit 1
  fi
  "$work/prefix/bin/ntt" --version
fi

pc=$(dirname "$(find "$work/prefix" -name ntt.pc | head -n 1)")
flags=$(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs ntt)
libdir=$(PKG_CONFIG_PATH=$pc pkg-config --variable=libdir ntt)
"$cc" -std=c17 -Wall -Wextra -Werror "$src/tests/install/consumer.c" $flags -o "$work/pc_consumer"
LD_LIBRARY_PATH=$libdir "$work/pc_consumer"

# The README's first program, exactly as shown (its first ```c block), and
# the copy of it in examples/ that the Getting started commands build.
awk '/^```c$/ {on = 1; next} on && /^```$/ {exit} on' "$src/README.md" >"$work/prog.c"
cmp "$work/prog.c" "$src/examples/first.c" ||
  { echo "README.md's first program differs from examples/first.c"; exit 1; }
"$cc" "$work/prog.c" $flags -o "$work/prog"
out=$(LD_LIBRARY_PATH=$libdir "$work/prog")
[ "$out" = "4 21 30 48 39 30 8 " ] || { echo "README's first program printed: $out"; exit 1; }

cmake -S "$src/tests/install" -B "$work/cm" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build "$work/cm" >/dev/null
LD_LIBRARY_PATH=$libdir "$work/cm/consumer_shared"
"$work/cm/consumer_static"

cmake -S "$src/examples" -B "$work/ex" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >/dev/null
cmake --build "$work/ex" >/dev/null
LD_LIBRARY_PATH=$libdir ctest --test-dir "$work/ex" --output-on-failure

# Python: the routes of python/README.md, from a copy of python/ (pip
# builds in the source folder).
version=$(PKG_CONFIG_PATH=$pc pkg-config --modversion ntt)
if "$python" -c "import setuptools, numpy, venv, pip" 2>/dev/null; then
  cp -r "$src/python" "$work/pysrc"
  rm -rf "$work/pysrc/build" "$work/pysrc"/*.egg-info "$work/pysrc/ntt"/libntt*
  check_py() { # interpreter, extra environment
    py=$1
    shift
    env LD_LIBRARY_PATH="$libdir" "$@" "$py" -c "
import ntt
assert ntt.__version__ == '$version', (ntt.__version__, '$version')
assert ntt.library_origin() == 'system', ntt.library_origin()
assert ntt.polymul_mod([1, 2], [3, 4], 5).tolist() == [3, 0, 3]
print('python', ntt.__version__, ntt.library_path())"
  }
  "$python" -m venv --system-site-packages "$work/venv"
  "$work/venv/bin/pip" install -q --no-build-isolation --no-index "$work/pysrc"
  (cd "$work" && check_py "$work/venv/bin/python")
  "$python" -m pip install -q --no-build-isolation --no-index --no-deps --target "$work/site" \
    "$work/pysrc"
  (cd "$work" && check_py "$python" PYTHONPATH="$work/site")
else
  echo "SKIPPED the Python routes: $python lacks numpy, pip, setuptools or venv"
fi
echo "install test passed"

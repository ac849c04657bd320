#!/bin/sh
# install_test.sh BUILD_DIR SOURCE_DIR [CC]: installs BUILD_DIR into a fresh
# prefix, checks that the installed `ntt` loads neither GMP, FLINT nor NTL,
# and builds programs against the package with CC, the compiler that built
# the library (the static library's OpenMP calls need that compiler's
# runtime: libgomp for GCC, libomp for clang): consumer.c with pkg-config
# and with find_package, and the examples/ folder on its own
# (find_package), whose programs check their own results.
set -eu
build=$1
src=$2
cc=${3:-cc}
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
echo "install test passed"

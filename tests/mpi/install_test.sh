#!/bin/sh
# install_test.sh BUILD_DIR THIS_DIR "MPIEXEC -n" "FLAGS" [CC]: installs
# BUILD_DIR into a fresh prefix and builds consumer/consumer.c there with
# pkg-config (ntt_mpi.pc) and with find_package(ntt_mpi), using CC, the
# compiler that built the library (the static library's OpenMP calls need
# that compiler's runtime: libgomp for GCC, libomp for clang), then runs
# each on two ranks.
set -eu
build=$1
here=$2
mpiexec=$3
flags=$4
cc=${5:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for f in include/ntt_mpi.h ntt_mpi.pc ntt_mpiConfig.cmake libntt_mpi.a libntt_mpi.so bin/ntt-mpi; do
  find "$work/prefix" -path "*$f" | grep -q . || { echo "missing after install: $f"; exit 1; }
done
pc=$(dirname "$(find "$work/prefix" -name ntt_mpi.pc | head -n 1)")
flags_pc=$(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs ntt_mpi)
libdir=$(PKG_CONFIG_PATH=$pc pkg-config --variable=libdir ntt_mpi)
"$cc" -std=c17 -Wall -Wextra -Werror "$here/consumer/consumer.c" $flags_pc -o "$work/pc_consumer"
# shellcheck disable=SC2086
LD_LIBRARY_PATH=$libdir $mpiexec 2 $flags "$work/pc_consumer"
cmake -S "$here/consumer" -B "$work/cm" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build "$work/cm" >/dev/null
# shellcheck disable=SC2086
LD_LIBRARY_PATH=$libdir $mpiexec 2 $flags "$work/cm/consumer_shared"
# shellcheck disable=SC2086
$mpiexec 2 $flags "$work/cm/consumer_static"
echo "install test passed"

#!/usr/bin/env bash
# fuzz_bundle.sh OUTDIR
# Builds the libFuzzer harnesses (clang, ASan + UBSan) for another machine
# and puts into OUTDIR what scripts/fuzz_campaign.sh needs there: the fuzz_*
# binaries (libstdc++ and libgcc linked in; the sanitizer runtimes are
# static with clang), the OpenMP runtime they load from their own directory,
# and the seed corpora (OUTDIR/seeds/<name>).  The other libraries are
# glibc's, which newer systems keep compatible.  The build tree is
# OUTDIR/build, or FUZZ_BUILD_DIR (e.g. the build-fuzz of
# scripts/reliability.sh, then only relinked).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: fuzz_bundle.sh OUTDIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
build=${FUZZ_BUILD_DIR:-$out/build}
CC=clang bash "$src/scripts/deps.sh"
CC=clang CXX=clang++ cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DNTT_FUZZ=ON \
  -DNTT_FUZZ_STATIC_RUNTIME=ON -DNTT_BUILD_TESTS=OFF -DNTT_BUILD_BENCH=OFF \
  -DNTT_BUILD_EXAMPLES=OFF -DNTT_BUILD_TOOLS=OFF -DNTT_ENABLE_CUDA=OFF -DNTT_ENABLE_MPI=OFF >/dev/null
cmake --build "$build" -j "$(nproc)"
cp "$build"/tests/fuzz/fuzz_* "$out/"
omp=$(ldd "$out"/fuzz_plan | awk '/libomp/ { print $3 }')
[ -z "$omp" ] || cp -L "$omp" "$out/"
rm -rf "$out/seeds"
cp -r "$src/tests/fuzz/corpus" "$out/seeds"
ls "$out"
ldd "$out/fuzz_plan"

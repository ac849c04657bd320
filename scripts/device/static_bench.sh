#!/usr/bin/env bash
# static_bench.sh [OUTDIR]: a statically linked `ntt-bench` (GMP, libgomp and
# libc inside; no FLINT or NTL rows, no GPU subcommands) in OUTDIR (default
# build-dev, ignored by git), for machines that lack the build's libraries,
# such as the device machine's host: carry OUTDIR there and run
#   OUTDIR/ntt-bench ladder ...
# Needs what scripts/deps.sh installs (the static libgmp.a comes with
# libgmp-dev).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build-dev}
build=$out/cmake
# The static archives of the libraries the build would otherwise link as
# shared objects (GMP, libgomp).
gmp=$(gcc -print-file-name=libgmp.a)
[ -f "$gmp" ] || gmp=$(ls /usr/lib/*/libgmp.a | head -n 1)
gomp=$(gcc -print-file-name=libgomp.a)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNTT_ENABLE_CUDA=OFF -DNTT_BUILD_TESTS=OFF \
      -DNTT_ENABLE_MPI=OFF \
      -DNTT_ENABLE_REFS=OFF -DGMP_LIBRARY="$gmp" -DOpenMP_gomp_LIBRARY="$gomp" \
      -DCMAKE_EXE_LINKER_FLAGS=-static >/dev/null
cmake --build "$build" -j "$(nproc)" --target ntt_bench >"$build/build.log" 2>&1 ||
  { tail -30 "$build/build.log"; exit 1; }
cp "$build/ntt-bench" "$out/"
"$out/ntt-bench" --version
echo "wrote $out/ntt-bench"

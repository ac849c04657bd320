#!/usr/bin/env bash
# static_ntt.sh [OUTDIR]: a statically linked `ntt` command (GMP, libgomp and
# libc inside; no FLINT or NTL rows) in OUTDIR (default build-dev, ignored by
# git), for machines that lack the build's libraries, such as the device
# machine: carry OUTDIR there and run OUTDIR/ntt bench --ladder ...
# Needs what scripts/deps.sh installs (the static libgmp.a comes with
# libgmp-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build-dev}
build=$out/cmake
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNTT_ENABLE_CUDA=OFF -DNTT_BUILD_TESTS=OFF \
      -DNTT_BUILD_TOOLS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target ntt_static >/dev/null
gmp=$(gcc -print-file-name=libgmp.a)
[ -f "$gmp" ] || gmp=$(ls /usr/lib/*/libgmp.a | head -n 1)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# The tools' sources as CMake lists them for ntt_cli, without FLINT and NTL.
gcc -O2 -std=c17 -D_POSIX_C_SOURCE=200809L -DNTT_GIT_COMMIT="\"$commit\"" -Iinclude -Itools \
    tools/ntt.c tools/cmd_mul.c tools/cmd_gen.c tools/bench.c tools/ladder.c tools/sysinfo.c \
    tools/ref.c tools/oracle.c "$build/libntt.a" "$gmp" -fopenmp -lpthread -lm -static -o "$out/ntt" 2>&1 |
    grep -v -e "statically linked applications requires" -e "in function" || true
"$out/ntt" info | sed -n 1,8p
echo "wrote $out/ntt"

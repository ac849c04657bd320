#!/usr/bin/env bash
# rns_bundle.sh OUTDIR [BUILDDIR]: the RNS stages' device programs (tests/test_rns_cuda and
# ntt-bench) built here from BUILDDIR (default build-cuda; configured with CUDA and
# -DNTT_ENABLE_REFS=OFF), copied to OUTDIR with the shared libraries the device machine
# lacks (GMP, OpenMP, libstdc++) in OUTDIR/lib and the run script (rns_run.sh).  Then carry
# OUTDIR and run `bash OUTDIR/rns_run.sh` there: the test, compute-sanitizer memcheck and
# racecheck on the test at N = 2^10, and `ntt-bench rns --gpu --json`, logs under $OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: rns_bundle.sh OUTDIR [BUILDDIR]}
build=${2:-build-cuda}
cmake --build "$build" -j 2 --target test_rns_cuda ntt_bench > "$build/rns_bundle.log" 2>&1 ||
  { tail -30 "$build/rns_bundle.log"; exit 1; }
mkdir -p "$out/lib"
bins=("$build/tests/test_rns_cuda" "$build/ntt-bench")
cp "${bins[@]}" scripts/device/rns_run.sh "$out/"
# Every library the binaries load, less the C library's own, CUDA's runtime (the
# device's is driver-matched) and Open MPI's (the device has its own).
ldd "${bins[@]}" | awk '/=> \// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libcudart)\.so' |
  grep -v -E '/(libmpi|libopen-rte|libopen-pal|libpmix|libhwloc|libevent[^/]*|libudev)\.so' |
  xargs -r -I{} cp -L {} "$out/lib/"
ls "$out/lib"
echo "wrote $out (commit $(git rev-parse --short=12 HEAD)$(git diff --quiet || echo ', with uncommitted changes'))"

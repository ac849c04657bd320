#!/usr/bin/env bash
# gpu_bundle.sh [OUTDIR [CMAKE_ARGS...]]: the CUDA build of `ntt`, `ntt-bench`,
# tests/test_cuda, test_rns_cuda, test_ckks_cuda and examples/cuda_graph made here (nvcc is on this machine), without
# FLINT and NTL, with the shared libraries the device machine lacks (GMP, OpenMP, libntt
# for the example) in OUTDIR/lib (default build-gpub, ignored by git).  Device time then goes to running, not compiling: carry
# OUTDIR and run
#   LD_LIBRARY_PATH=OUTDIR/lib OUTDIR/ntt-bench gpu ...
# or `bash scripts/device/run_gpu.sh` with NTT_GPU_BUNDLE=OUTDIR.  OUTDIR.cmake/build.log
# keeps the compiler output, ptxas -v (registers and spills per kernel) included.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build-gpub}
shift $(( $# > 0 ? 1 : 0 ))
build=$out.cmake
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNTT_ENABLE_REFS=OFF \
  -DCMAKE_CUDA_FLAGS=-Xptxas=-v "$@" >/dev/null
cmake --build "$build" -j "$(nproc)" --target ntt_cli ntt_bench test_cuda test_rns_cuda test_ckks_cuda \
  example_cuda_graph > "$build/build.log" 2>&1 ||
  { tail -30 "$build/build.log"; exit 1; }
mkdir -p "$out/lib"
bins=("$build/ntt" "$build/ntt-bench" "$build/tests/test_cuda" "$build/tests/test_rns_cuda" "$build/tests/test_ckks_cuda"
      "$build/examples/cuda_graph")
cp "${bins[@]}" "$out/"
# Every library the binaries load, less the C library's own, CUDA's runtime
# (the device machine has its own driver-matched one) and Open MPI's (its
# mpirun and daemons must match the libmpi the ranks load: the device's own
# Open MPI 4.1, whose libmpi.so.40 keeps the ABI of this one) and NCCL's (a system library there).
ldd "${bins[@]}" | awk '/=> \// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libcudart)\.so' |
  grep -v -E '/(libmpi|libopen-rte|libopen-pal|libpmix|libhwloc|libevent[^/]*|libudev|libnccl)\.so' |
  xargs -r -I{} cp -L {} "$out/lib/"
ls "$out/lib"
echo "wrote $out (commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ', with uncommitted changes'))"

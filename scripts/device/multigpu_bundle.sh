#!/usr/bin/env bash
# multigpu_bundle.sh [OUTDIR [CMAKE_ARGS...]]: the CUDA + NCCL + MPI build of
# tests/test_multigpu, tests/test_multigpu_ks, tests/test_multigpu_mpi and
# ntt-bench (with its `multigpu` section) made here, for scripts/device/multigpu.sh to run on the
# GPU machine (carry OUTDIR; default build-mg-dev, ignored by git).
# Stripped; pass -DCMAKE_CUDA_ARCHITECTURES=90-real to leave out the PTX (the
# device's GPUs run the sm_90 code), which makes the binaries smaller but
# recompiles an existing build directory (BUILD=DIR reuses one).  OUTDIR/lib gets the shared libraries the device
# lacks (GMP, OpenMP, the C++ runtime), NOT libcudart (the device's own,
# driver-matched), NOT Open MPI's (its mpirun must match the libmpi the
# ranks load) and NOT libnccl (the device has its own NCCL 2.28).
# OUTDIR.cmake/build.log keeps the compiler output.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build-mg-dev}
shift $(( $# > 0 ? 1 : 0 ))
build=${BUILD:-$out.cmake}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNTT_ENABLE_REFS=OFF \
  -DNTT_BUILD_EXAMPLES=OFF "$@" >/dev/null
grep -q '^NCCL_LIBRARY:FILEPATH=/' "$build/CMakeCache.txt" ||
  { echo "multigpu_bundle.sh: NCCL not found (libntt_multigpu is not built)"; exit 1; }
cmake --build "$build" -j "${JOBS:-2}" --target ntt_bench test_multigpu test_multigpu_ks \
  test_multigpu_mpi \
  > "$build/build.log" 2>&1 || { tail -30 "$build/build.log"; exit 1; }
mkdir -p "$out/lib"
bins=("$build/ntt-bench" "$build/tests/test_multigpu" "$build/tests/test_multigpu_ks"
  "$build/tests/test_multigpu_mpi")
cp "${bins[@]}" "$out/"
for b in "${bins[@]}"; do strip "$out/$(basename "$b")"; done
ldd "${bins[@]}" | awk '/=> \// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libcudart|libnccl)\.so' |
  grep -v -E '/(libmpi|libopen-rte|libopen-pal|libpmix|libhwloc|libevent[^/]*|libudev)\.so' |
  xargs -r -I{} cp -L {} "$out/lib/"
ls -la "$out" "$out/lib"
du -sh "$out"
echo "wrote $out (commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ', with uncommitted changes'))"

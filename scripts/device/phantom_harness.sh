#!/usr/bin/env bash
# phantom_harness.sh PHANTOM_SRC PHANTOM_BUILD OUTDIR: compiles bench/anchors/phantom_ckks.cu
# (the CKKS operations of `ntt-bench ckks --gpu`, timed in Phantom) against a Phantom that
# the user fetched and built outside this tree (its include/ folder in PHANTOM_SRC, its
# lib/libPhantom.so in PHANTOM_BUILD), for sm_90, and copies the program and libPhantom.so to
# OUTDIR.  On the device: `LD_LIBRARY_PATH=OUTDIR OUTDIR/phantom_ckks --json FILE`.  PHANTOM_SRC
# should be a git checkout or carry a COMMIT file: the commit goes into every table.
set -euo pipefail
src=${1:?usage: phantom_harness.sh PHANTOM_SRC PHANTOM_BUILD OUTDIR}
bld=${2:?usage: phantom_harness.sh PHANTOM_SRC PHANTOM_BUILD OUTDIR}
out=${3:?usage: phantom_harness.sh PHANTOM_SRC PHANTOM_BUILD OUTDIR}
here=$(cd "$(dirname "$0")/../.." && pwd)
commit=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null || cat "$src/COMMIT")
mkdir -p "$out"
nvcc -O3 -std=c++17 -arch=sm_90 -DPHANTOM_USE_CUDA_PTX -DPHANTOM_COMMIT="\"$commit\"" \
  -I"$src/include" "$here/bench/anchors/phantom_ckks.cu" -o "$out/phantom_ckks" \
  -L"$bld/lib" -lPhantom -Xlinker -rpath='$ORIGIN'
cp -L "$bld/lib/libPhantom.so" "$out/"
echo "wrote $out/phantom_ckks (Phantom $commit)"

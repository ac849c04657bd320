#!/usr/bin/env bash
# The main job: installs what is missing, builds, makes the course's five
# cases (the bundled n = 4 case from tests/data and four n = 131072 inputs
# from `ntt gen`, with their expected products from `ntt-bench oracle`,
# which computes them with GMP rather than with the NTT code), multiplies
# them on every available backend and prints the verified timing table
# (`ntt cases`; extra arguments go to it).
# It builds only the library, `ntt` and `ntt-bench` (not the tests, their
# CUDA and NCCL stand-ins, or the examples: scripts/test.sh builds those),
# and shows the build's progress and each case as it is made and multiplied.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== packages (scripts/deps.sh)"
bash scripts/deps.sh
build=${BUILD_DIR:-build}
echo "== configure ($build)"
mkdir -p "$build"
if ! cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >"$build/configure.log" 2>&1; then
  cat "$build/configure.log" >&2
  exit 1
fi
grep -E '^-- ntt:' "$build/configure.log" || true
echo "== build: libntt, ntt, ntt-bench"
cmake --build "$build" -j "$(nproc)" --target ntt_cli ntt_bench
ntt=$build/ntt bench=$build/ntt-bench
[ -x "$bench" ] || { echo "error: $bench was not built: it needs GMP (libgmp-dev)" >&2; exit 1; }
data=$build/nttdata
mkdir -p "$data"
cp tests/data/0.in tests/data/0.out "$data/"
echo "== the cases ($data)"
id=1
for p in 7340033 104857601 469762049 1337006139375617; do
  if [ ! -s "$data/$id.in" ] || [ ! -s "$data/$id.out" ]; then
    echo "case $id: n = 131072, p = $p: inputs (ntt gen), expected product (ntt-bench oracle, GMP)"
    "$ntt" gen 131072 "$p" --seed "$id" -o "$data/$id.in"
    "$bench" oracle "$data/$id.in" -o "$data/$id.out"
  fi
  id=$((id + 1))
done
echo "== multiplying every case on every available backend (ntt cases)"
"$ntt" cases "$data" "$@"

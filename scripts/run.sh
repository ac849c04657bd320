#!/usr/bin/env bash
# The main job: installs what is missing, builds, makes the course's five
# cases (the bundled n = 4 case from tests/data and four n = 131072 inputs
# from `ntt gen`, with their expected products from `ntt-bench oracle`,
# which computes them with GMP rather than with the NTT code), multiplies
# them on every available backend and prints the verified timing table
# (`ntt cases`; extra arguments go to it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
ntt=$build/ntt bench=$build/ntt-bench
[ -x "$bench" ] || { echo "error: $bench was not built: it needs GMP (libgmp-dev)" >&2; exit 1; }
data=$build/nttdata
mkdir -p "$data"
cp tests/data/0.in tests/data/0.out "$data/"
id=1
for p in 7340033 104857601 469762049 1337006139375617; do
  if [ ! -s "$data/$id.in" ] || [ ! -s "$data/$id.out" ]; then
    "$ntt" gen 131072 "$p" --seed "$id" -o "$data/$id.in"
    "$bench" oracle "$data/$id.in" -o "$data/$id.out"
  fi
  id=$((id + 1))
done
"$ntt" cases "$data" "$@"

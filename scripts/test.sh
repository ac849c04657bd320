#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest).
#   BUILD_DIR     build directory (default: build)
#   NTT_SANITIZE  1: build with -fsanitize=address,undefined (Debug)
#   CC            the C compiler of a fresh build directory (CC=clang: the
#                 C++ parts take clang++ too, unless CXX says otherwise)
# Tests that need hardware this machine lacks (a GPU, AVX2) report SKIPPED.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== test.sh: packages (scripts/deps.sh)"
bash scripts/deps.sh
build=${BUILD_DIR:-build}
if [[ "${CC:-}" == *clang* && -z "${CXX:-}" ]]; then
  export CXX=${CC/clang/clang++}
fi
args=(-DCMAKE_BUILD_TYPE=Release)
if [ "${NTT_SANITIZE:-0}" = 1 ]; then
  args=(-DCMAKE_BUILD_TYPE=Debug -DNTT_SANITIZE=ON)
fi
echo "== test.sh: configure ($build)"
cmake -S . -B "$build" "${args[@]}"
echo "== test.sh: build everything ($build)"
cmake --build "$build" -j "$(nproc)"
echo "== test.sh: every test (ctest, labels: $(ctest --test-dir "$build" --print-labels |
  sed -n 's/^  *//p' | tr '\n' ' '))"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"

#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest).
#   BUILD_DIR     build directory (default: build)
#   NTT_SANITIZE  1: build with -fsanitize=address,undefined (Debug)
#   CC            the C compiler of a fresh build directory (CC=clang: the
#                 C++ parts take clang++ too, unless CXX says otherwise)
# Tests that need hardware this machine lacks (a GPU, AVX2) report SKIPPED.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
build=${BUILD_DIR:-build}
if [[ "${CC:-}" == *clang* && -z "${CXX:-}" ]]; then
  export CXX=${CC/clang/clang++}
fi
args=(-DCMAKE_BUILD_TYPE=Release)
if [ "${NTT_SANITIZE:-0}" = 1 ]; then
  args=(-DCMAKE_BUILD_TYPE=Debug -DNTT_SANITIZE=ON)
fi
cmake -S . -B "$build" "${args[@]}"
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"

#!/usr/bin/env bash
# The reliability runs of issue 51 (docs/RELIABILITY.md), each bounded in
# time; used by CI (.ci/run).  Needs clang (scripts/deps.sh installs it
# with CC=clang).
#   1. libFuzzer: every harness of tests/fuzz for FUZZ_SECONDS (default 60)
#      from its committed seeds, under ASan + UBSan (build-fuzz).
#   2. ThreadSanitizer: tests/tsan (build-tsan).
#   3. Fault injection and the command under faults in the ASan + UBSan
#      build (BUILD_DIR, default build-asan, that of NTT_SANITIZE=1
#      scripts/test.sh): test_alloc_faults, test_gpu_faults and
#      tests/cli/faults.sh with a 2^24-coefficient product (LARGE_LOG2N=23).
# STAGES (default "fuzz tsan faults") picks stages.  Exits non-zero on the
# first failure; a fuzzer's crash input is kept in build-fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
CC=${CC:-clang} bash scripts/deps.sh
secs=${FUZZ_SECONDS:-60}
stages=${STAGES:-fuzz tsan faults}
jobs=$(nproc)
clang_env=(env CC=clang CXX=clang++)
common=(-DNTT_BUILD_TESTS=OFF -DNTT_BUILD_BENCH=OFF -DNTT_BUILD_EXAMPLES=OFF
        -DNTT_BUILD_TOOLS=OFF -DNTT_ENABLE_CUDA=OFF -DNTT_ENABLE_MPI=OFF)
stamp() { echo "== reliability: $* ($(date +%T))"; }

if [[ " $stages " == *" fuzz "* ]]; then
  stamp "fuzz build"
  "${clang_env[@]}" cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DNTT_FUZZ=ON "${common[@]}" >/dev/null
  cmake --build build-fuzz -j "$jobs"
  mkdir -p build-fuzz/artifacts
  for dir in tests/fuzz/corpus/*/; do
    name=$(basename "$dir")
    stamp "fuzz_$name for ${secs}s"
    # The corpus grows in the build tree; the committed seeds stay as they are.
    mkdir -p "build-fuzz/corpus/$name"
    build-fuzz/tests/fuzz/fuzz_"$name" -max_total_time="$secs" -print_final_stats=1 \
      -artifact_prefix="build-fuzz/artifacts/fuzz_$name-" -timeout=30 -rss_limit_mb=2048 \
      "build-fuzz/corpus/$name" "$dir" 2>"build-fuzz/fuzz_$name.log" || {
        tail -n 60 "build-fuzz/fuzz_$name.log"
        echo "fuzz_$name: FAILED (input in build-fuzz/artifacts/)"
        exit 1
      }
    grep -E '^stat::(number_of_executed_units|new_units_added)' "build-fuzz/fuzz_$name.log"
  done
fi

if [[ " $stages " == *" tsan "* ]]; then
  stamp "ThreadSanitizer build"
  "${clang_env[@]}" cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DNTT_TSAN=ON "${common[@]}" >/dev/null
  cmake --build build-tsan -j "$jobs" --target test_threads
  stamp "ThreadSanitizer run"
  ctest --test-dir build-tsan -L tsan --output-on-failure
fi

if [[ " $stages " == *" faults "* ]]; then
  build=${BUILD_DIR:-build-asan}
  stamp "fault injection ($build)"
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DNTT_SANITIZE=ON >/dev/null
  fi
  cmake --build "$build" -j "$jobs" --target test_alloc_faults test_gpu_faults ntt_cli
  "$build/tests/faults/test_alloc_faults"
  "$build/tests/faults/test_gpu_faults" || [ $? -eq 77 ]
  stamp "the command under faults, 2^${LARGE_LOG2N:-23}-coefficient inputs"
  sh tests/cli/faults.sh "$build/ntt" "$build/reliability-cli" "${LARGE_LOG2N:-23}"
fi
stamp "done"

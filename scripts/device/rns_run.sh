#!/usr/bin/env bash
# rns_run.sh [STEPS]: on the device machine, from the folder rns_bundle.sh wrote: the RNS
# stages' test, compute-sanitizer on it at N = 2^10, and `ntt-bench rns --gpu`; logs and
# JSON under $OUT (default: the current folder).  STEPS: any of test, sanitize, bench
# (default all three).  Each step is bounded by a timeout so the whole run ends.
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-$PWD}
steps=${1:-test sanitize bench}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for s in $steps; do
  case $s in
    test)
      timeout "${TEST_TIMEOUT:-150}" "$here/test_rns_cuda" > "$OUT/test_rns_cuda.log" 2>&1
      echo "test_rns_cuda exit $?"; tail -4 "$OUT/test_rns_cuda.log" ;;
    sanitize)
      for tool in memcheck racecheck; do
        NTT_TEST_MAX_LOG=10 timeout "${SAN_TIMEOUT:-100}" compute-sanitizer --tool $tool \
          --report-api-errors no --error-exitcode 99 "$here/test_rns_cuda" \
          > "$OUT/sanitize-$tool.log" 2>&1
        echo "$tool exit $?"; tail -3 "$OUT/sanitize-$tool.log"
      done ;;
    bench)
      timeout "${BENCH_TIMEOUT:-150}" "$here/ntt-bench" rns --gpu ${BENCH_ARGS:-} \
        --json "$OUT/rns-gpu.json" > "$OUT/rns-gpu.txt" 2>&1
      echo "ntt-bench rns --gpu exit $?"; cat "$OUT/rns-gpu.txt" ;;
  esac
done

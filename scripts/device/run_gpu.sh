#!/usr/bin/env bash
# Everything the GPU machine is asked to do, in one call (device time is
# scarce): build, then the stages named on the command line, each writing
# its logs and JSON under $OUT (default: ./gpu-out).
#
#   bash scripts/device/run_gpu.sh env test sanitize bench modmul cpu-scaling
#
# Stages:
#   env          machine, driver, toolkit, clocks
#   test         tests/test_cuda (every size 2^1..2^24, bit-exact vs scalar;
#                NTT_TEST_PART=1, 2 or 3 runs one part, for calls of limited time)
#   example      examples/cuda_graph (device pointers, a stream and a graph)
#   sanitize     compute-sanitizer memcheck and racecheck on test_cuda (small sizes)
#   bench        ntt-bench gpu --json
#   profile      ncu on the headline kernels (ntt-bench gpu --profile, PROFILE_CASES)
#   headline     ntt-bench gpu --headline --json, twice (runs 1 and 2)
#   sizes        forward u32 Shoup transforms of 2^18 .. 2^24 (profile mode, 30 repetitions)
#   modmul       the modular multiplication chain-16 table with SASS counts
#   cpu-scaling  the CPU thread-scaling run on the machine's cores (ntt-bench ladder)
# With NTT_GPU_BUNDLE=DIR it builds nothing and runs DIR's binaries (made
# here by scripts/device/gpu_bundle.sh DIR and carried).  A/B runs of several
# bundles or environments: scripts/device/gpu_variants.sh.
# GMP headers: when the machine has none, Debian's libgmp-dev .deb files in
# .device/ (carried, not committed) are unpacked into a private prefix.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
build=build-gpu
jobs=$(nproc)

gmp_args=()
if [ ! -e /usr/include/gmp.h ] && [ ! -e /usr/include/x86_64-linux-gnu/gmp.h ]; then
  if ls .device/libgmp*.deb >/dev/null 2>&1; then
    mkdir -p /tmp/gmp
    for f in .device/libgmp*.deb; do dpkg -x "$f" /tmp/gmp; done
    gmp_args=(-DGMP_INCLUDE_DIR=/tmp/gmp/usr/include/x86_64-linux-gnu
              -DGMP_LIBRARY=/tmp/gmp/usr/lib/x86_64-linux-gnu/libgmp.so)
    export LD_LIBRARY_PATH=/tmp/gmp/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  fi
fi

step() { echo "=== $* ($(date -u +%H:%M:%S))"; }

if [ -n "${NTT_GPU_BUNDLE:-}" ]; then
  # Binaries built on the developer's machine (scripts/device/gpu_bundle.sh), carried.
  step "bundle $NTT_GPU_BUNDLE"
  bench=$NTT_GPU_BUNDLE/ntt-bench test_cuda=$NTT_GPU_BUNDLE/test_cuda
  example=$NTT_GPU_BUNDLE/cuda_graph
  export LD_LIBRARY_PATH=$PWD/$NTT_GPU_BUNDLE/lib:${LD_LIBRARY_PATH:-}
else
  step build
  # Build logs stay off $OUT (at most 8 files come back) unless the build fails.
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "${gmp_args[@]}" >/tmp/cmake.log 2>&1 ||
    { cp /tmp/cmake.log "$OUT/"; tail -30 /tmp/cmake.log; exit 1; }
  cmake --build "$build" -j "$jobs" >/tmp/build.log 2>&1 ||
    { cp /tmp/build.log "$OUT/"; grep -E "error" -A3 /tmp/build.log | head -60; exit 1; }
  bench=$build/ntt-bench test_cuda=$build/tests/test_cuda example=$build/examples/cuda_graph
fi

for stage in "$@"; do
  case $stage in
  env)
    step env
    { uname -a; cat /etc/os-release | head -2; nvidia-smi; nvcc --version | tail -2;
      nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu --format=csv;
      nproc; free -g | head -2; } >"$OUT/env.txt" 2>&1
    head -30 "$OUT/env.txt"
    ;;
  test)
    step test_cuda
    timeout "${TEST_TIMEOUT:-580}" "$test_cuda" 2>&1 | tee "$OUT/test_cuda.log" | tail -12
    echo "test_cuda exit ${PIPESTATUS[0]}"
    ;;
  example)
    step examples/cuda_graph
    "$example" 2>&1 | tee "$OUT/example.log"
    echo "cuda_graph exit ${PIPESTATUS[0]}"
    ;;
  sanitize)
    step compute-sanitizer
    # The test provokes a device out-of-memory on purpose: API errors are
    # the library's to report (and the test checks the status), so the
    # sanitizer looks at kernel memory accesses and races only.
    # memcheck: every kernel at the small sizes; racecheck: the fast path up
    # to the sizes with three passes per transform.
    for tool in memcheck racecheck; do
      max=${SAN_MAX_LOG:-10} fast=0
      [ $tool = racecheck ] && max=${RACE_MAX_LOG:-13} fast=1
      NTT_TEST_FAST_ONLY=$fast NTT_TEST_MAX_LOG=$max timeout "${SAN_TIMEOUT:-150}" compute-sanitizer \
        --tool $tool --report-api-errors no --error-exitcode 99 "$test_cuda" \
        >"$OUT/sanitize-$tool.log" 2>&1
      echo "$tool (sizes to 2^$max) exit $?"; tail -3 "$OUT/sanitize-$tool.log"
    done
    ;;
  bench)
    step ntt-bench gpu
    "$bench" gpu --json "$OUT/gpu-bench.json" >"$OUT/gpu-bench.txt" 2>&1
    echo "bench exit $?"; tail -60 "$OUT/gpu-bench.txt"
    ;;
  profile)
    step ncu profile
    # One run per case, so that its first launches are the kernels of one call.
    : >"$OUT/ncu.txt"
    for c in ${PROFILE_CASES:-0 1 2 3}; do
      NTT_PROFILE_CASE=$c ncu --clock-control none --section SpeedOfLight --section Occupancy \
        --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
        --section ComputeWorkloadAnalysis --section InstructionStats --section SchedulerStats \
        --kernel-name regex:"k_pass|k_polymul_bottom" --launch-skip 0 --launch-count 3 \
        "$bench" gpu --profile >>"$OUT/ncu.txt" 2>&1
      echo "ncu case $c exit $?"
    done
    grep -E "k_pass|k_polymul|Duration|Throughput|Achieved Occupancy|Registers Per|Block Limit|Stall|Warp Cycles|Bank|Issued Ipc|Executed Ipc" "$OUT/ncu.txt" | head -150
    ;;
  headline)
    for r in 1 2; do
      step "ntt-bench gpu --headline ($r)"
      "$bench" gpu --headline --json "$OUT/headline-$r.json" >"$OUT/headline-$r.txt" 2>&1
      echo "headline $r exit $?"; grep -E "shoup.*(graph|queued) warm|host to host" "$OUT/headline-$r.txt"
    done
    ;;
  sizes)
    step "forward u32 2^18 .. 2^24"
    : >"$OUT/sizes.txt"
    rm -f /tmp/sizes-*.json
    for L in 18 19 20 21 22 23 24; do
      NTT_PROFILE_CASE=0 NTT_PROFILE_LOG=$L NTT_PROFILE_REPS=30 "$bench" gpu --profile \
        --json "/tmp/sizes-$L.json" >>"$OUT/sizes.txt" 2>&1 || echo "size 2^$L exit $?" >>"$OUT/sizes.txt"
    done
    tar czf "$OUT/sizes-json.tgz" -C /tmp $(cd /tmp && ls sizes-*.json)
    grep -E "graph (warm|cold)|exit" "$OUT/sizes.txt"
    ;;
  modmul)
    step modmul chain-16
    "$bench" gpu-modmul --json "$OUT/gpu-modmul.json" >"$OUT/gpu-modmul.txt" 2>&1
    echo "modmul exit $?"
    if command -v cuobjdump >/dev/null; then
      cuobjdump -sass "$bench" >"$OUT/sass-ntt-bench.txt" 2>&1
      python3 scripts/device/sass_counts.py "$OUT/sass-ntt-bench.txt" "$OUT/gpu-modmul.json" \
        >>"$OUT/gpu-modmul.txt" 2>&1
    fi
    tail -30 "$OUT/gpu-modmul.txt"
    ;;
  cpu-scaling)
    step cpu scaling
    "$bench" ladder --threads "1,2,4,8,16" --json "$OUT/cpu-scaling.json" \
      >"$OUT/cpu-scaling.txt" 2>&1
    echo "cpu-scaling exit $?"; tail -30 "$OUT/cpu-scaling.txt"
    ;;
  *)
    echo "unknown stage $stage"
    ;;
  esac
done

#!/usr/bin/env bash
# multigpu.sh: libntt_multigpu on the GPU machine (issue 50), from the bundle
# made here by scripts/device/multigpu_bundle.sh (carried; NTT_MGPU_BUNDLE,
# default build-mg-dev).  Writes under $OUT (default ./gpu-out):
#   env.txt               GPUs, topology (NVLink), NCCL and MPI found
#   test_2gpu.log         tests/test_multigpu on GPUs 0,1
#   test_all.log          ... on every GPU
#   test_ks_2gpu.log      tests/test_multigpu_ks (the key switch) on GPUs 0,1
#   test_ks_all.log       ... on every GPU
#   test_mpi_2.log        tests/test_multigpu_mpi, 2 ranks (one GPU each)
#   test_mpi_all.log      ... one rank per GPU
#   memcheck.log          compute-sanitizer memcheck, GPUs 0,1, small sizes
#   memcheck_ks.log       ... of tests/test_multigpu_ks
#   bench.txt, multigpu.json   ntt-bench multigpu (1, 2, 4 GPUs)
# Stages may be named on the command line (env test mpi memcheck bench);
# none: all of them.  NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
B=${NTT_MGPU_BUNDLE:-build-mg-dev}
export LD_LIBRARY_PATH=$PWD/$B/lib:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
stages=${*:-env test mpi memcheck bench}
ndev=$(nvidia-smi -L 2>/dev/null | wc -l)
step() { echo "=== $* ($(date -u +%H:%M:%S))"; }
has() { case " $stages " in *" $1 "*) return 0 ;; esac; return 1; }

if has env; then
  step env
  { nvidia-smi -L; nvidia-smi topo -m; ldconfig -p | grep -E 'libnccl|libmpi\.so'
    command -v mpirun; mpirun --version 2>&1 | head -1; ls -la "$B"; } > "$OUT/env.txt" 2>&1
  head -12 "$OUT/env.txt"
fi
if has test; then
  # test_multigpu: batches and the four-step (sizes up to 2^MAX_LOG);
  # test_multigpu_ks: the key switch (N up to 2^10, and the benchmark's
  # shape at 2^16 when KS_MAX_LOG >= 16).
  for t in test_multigpu test_multigpu_ks; do
    case $t in
      test_multigpu) ml=${MAX_LOG:-22} log=test to=150 ;;
      *) ml=${KS_MAX_LOG:-16} log=test_ks to=${KS_TIMEOUT:-240} ;;
    esac
    step "$t on GPUs 0,1"
    CUDA_VISIBLE_DEVICES=0,1 NTT_TEST_MAX_LOG=$ml timeout "$to" "$B/$t" > "$OUT/${log}_2gpu.log" 2>&1
    echo "exit $?"; tail -3 "$OUT/${log}_2gpu.log"
    if [ "$ndev" -gt 2 ]; then
      step "$t on all $ndev GPUs"
      NTT_TEST_MAX_LOG=$ml timeout "$to" "$B/$t" > "$OUT/${log}_all.log" 2>&1
      echo "exit $?"; tail -3 "$OUT/${log}_all.log"
    fi
  done
fi
if has mpi; then
  for np in 2 $([ "$ndev" -gt 2 ] && echo "$ndev"); do
    step "test_multigpu_mpi, $np ranks"
    timeout 120 mpirun -n "$np" --oversubscribe --bind-to none "$B/test_multigpu_mpi" \
      > "$OUT/test_mpi_$([ "$np" = 2 ] && echo 2 || echo all).log" 2>&1
    echo "exit $?"; tail -3 "$OUT/test_mpi_$([ "$np" = 2 ] && echo 2 || echo all).log"
  done
fi
if has memcheck; then
  step "compute-sanitizer memcheck, GPUs 0,1"
  # API errors are the library's to report (and the tests check statuses):
  # kernel memory accesses only.
  # The key switch's test launches many small kernels (every level of
  # each shape): a longer limit.
  for t in test_multigpu test_multigpu_ks; do
    case $t in
      test_multigpu) log=memcheck.log to=${SAN_TIMEOUT:-150} ;;
      *) log=memcheck_ks.log to=${SAN_TIMEOUT_KS:-400} ;;
    esac
    CUDA_VISIBLE_DEVICES=0,1 NTT_TEST_MAX_LOG=${SAN_MAX_LOG:-8} timeout "$to" \
      compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
      "$B/$t" > "$OUT/$log" 2>&1
    echo "$t: exit $?"; tail -4 "$OUT/$log"
  done
fi
if has bench; then
  step "ntt-bench multigpu"
  timeout 400 "$B/ntt-bench" multigpu ${BENCH_ARGS:-} --json "$OUT/multigpu.json" \
    > "$OUT/bench.txt" 2>&1
  echo "exit $?"; cat "$OUT/bench.txt"
fi

#!/usr/bin/env bash
# The MPI strong-scaling sweep (issue 49) on one multi-core host:
#   bash scripts/device/mpi_scaling.sh [--build-only | --run-only] OUTDIR
# builds ntt-bench with its MPI section from this checkout (CPU only: no
# CUDA, FLINT or NTL; GMP, which ntt-bench needs) into build-mpi/ -- or
# takes the ntt-bench named by BENCH, built elsewhere -- then runs
#   mpirun -n P ntt-bench mpi --n 20..26 --json OUTDIR/mpi_P<P>.json
# for P = 1, 2, 4, 8, 16 (RANKS overrides; REPS, SIZES, P_MOD too), then the
# layouts of issue 64, ranks x threads per rank (LAYOUTS, default
# "16x1 8x2 4x4 2x8 1x16"), each with the exchange it gets on one host (the
# shared window) and, for more than one rank, with NTT_MPI_SHM=0 as across
# hosts: the product's all-to-alls in overlapped pieces (mpi_<P>x<T>_a2a.json)
# and in one piece (mpi_<P>x<T>_a2a1.json, the overlap's reference); MODES
# ("shm a2a a2a1") picks among them.  Then it fits the cost model
# (scripts/mpi_model.py) to the files, writing OUTDIR/model.txt,
# OUTDIR/model.json and OUTDIR/model.svg: the strong-scaling table, the
# layout table (time, exposed exchange, overlap, bytes per rank, the
# OpenMP backend with ranks x threads threads) and the model past one host.
# Every row is verified against ntt_polymul_mod on rank 0 before it is timed.
# Ranks are not bound (--bind-to none): the OpenMP row runs its threads from
# rank 0 while the other ranks sleep.
set -euo pipefail
mode=all
case ${1:-} in
--build-only) mode=build; shift ;;
--run-only) mode=run; shift ;;
esac
out=${1:?usage: mpi_scaling.sh [--build-only|--run-only] OUTDIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$src/build-mpi}
bench=${BENCH:-$build/ntt-bench}
ranks=${RANKS:-1 2 4 8 16}
layouts=${LAYOUTS:-16x1 8x2 4x4 2x8 1x16}
modes=${MODES:-shm a2a a2a1}
reps=${REPS:-10}
sizes=${SIZES:-20,21,22,23,24,25,26}
pmod=${P_MOD:-469762049}
mkdir -p "$out"

if [ "$mode" != run ]; then
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DNTT_ENABLE_CUDA=OFF \
        -DNTT_ENABLE_REFS=OFF -DNTT_BUILD_TESTS=OFF >"$out/cmake.log"
  cmake --build "$build" -j"$(nproc)" --target ntt_bench ntt_mpi_cli >>"$out/cmake.log"
fi
[ "$mode" = build ] && exit 0

# Open MPI refuses root without these; --oversubscribe in case the host
# counts fewer cores than the largest rank count.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=$(command -v mpirun || command -v mpiexec)
# Containers that forbid process_vm_readv break Open MPI's single-copy
# shared-memory transfers: fall back to copies through shared buffers.
if ! "$mpirun" --oversubscribe --bind-to none -n 2 "$bench" mpi --n 16 --reps 1 \
     --no-sweep --no-openmp --no-baseline >"$out/probe.txt" 2>&1; then
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  echo "note: the 2-rank probe failed; OMPI_MCA_btl_vader_single_copy_mechanism=none" |
    tee -a "$out/probe.txt"
  "$mpirun" --oversubscribe --bind-to none -n 2 "$bench" mpi --n 16 --reps 1 \
    --no-sweep --no-openmp --no-baseline >>"$out/probe.txt" 2>&1
fi
{
  echo "host: $(hostname), $(nproc) logical CPUs"
  lscpu 2>/dev/null | grep -E "Model name|Socket|Core|Thread|NUMA node\(s\)|L3" || true
  "$mpirun" --version 2>&1 | head -n 1
  echo "ntt-bench: $bench ($("$bench" --version 2>&1 | head -n 1))"
  echo "single copy: ${OMPI_MCA_btl_vader_single_copy_mechanism:-default}"
} | tee "$out/machine.txt"
for p in $ranks; do
  echo "== $p ranks"
  "$mpirun" --oversubscribe --bind-to none -n "$p" "$bench" mpi --n "$sizes" \
    --p "$pmod" --reps "$reps" --json "$out/mpi_P$p.json" | tee "$out/mpi_P$p.txt"
done
# Ranks x threads: the exchange on one host (shared window), then as across
# hosts (all-to-alls in pieces, and in one piece).  No master-slave rows
# (the strong-scaling runs above have them).
for l in $layouts; do
  p=${l%x*}
  t=${l#*x}
  for mode in $modes; do
    case $mode in
    shm) env=""; tag="" ;;
    a2a) env="NTT_MPI_SHM=0"; tag="_a2a" ;;
    a2a1) env="NTT_MPI_SHM=0 NTT_MPI_CHUNKS=1"; tag="_a2a1" ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
    esac
    [ "$p" = 1 ] && [ "$mode" != shm ] && continue
    echo "== $p ranks x $t threads ${env:-(shared window)}"
    # shellcheck disable=SC2086
    env $env "$mpirun" --oversubscribe --bind-to none -n "$p" "$bench" mpi --n "$sizes" \
      --p "$pmod" --reps "$reps" --threads "$t" --no-baseline \
      --json "$out/mpi_${p}x${t}${tag}.json" | tee "$out/mpi_${p}x${t}${tag}.txt"
  done
done
python3 "$src/scripts/mpi_model.py" --svg "$out/model.svg" --json "$out/model.json" \
  "$out"/mpi_*.json | tee "$out/model.txt"

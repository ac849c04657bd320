#!/bin/sh
# bench_counts.sh "MPIEXEC -n" "FLAGS" NTT_BENCH WORK  (runs NTT_BENCH mpi ...)
# The MPI benchmark on 3 ranks at small sizes, twice: as launched (the
# ranks share a node: the four-step reads the others' blocks through a
# shared window, no all-to-all at all) and with NTT_MPI_SHM=0 and two
# pieces (the product's exchanges as 2 x 2 MPI_Ialltoallv).  It must verify
# every row, its PMPI wrapper must count exactly those all-to-alls (and
# none for the master-slave baseline, which broadcasts and gathers), and
# the bytes each rank's data crosses must be the same both ways.
set -u
mpiexec=$1
flags=$2
exe=$3
work=$4
mkdir -p "$work"
json="$work/bench_counts.json"
json2="$work/bench_counts_pieces.json"
rm -f "$json" "$json2"
# shellcheck disable=SC2086
$mpiexec 3 $flags "$exe" mpi --n 8,11,14 --reps 3 --no-sweep --json "$json" </dev/null || {
    echo "FAIL: the benchmark exited with $?"
    exit 1
}
# shellcheck disable=SC2086
NTT_MPI_SHM=0 NTT_MPI_CHUNKS=2 $mpiexec 3 $flags "$exe" mpi --n 8,11,14 --reps 3 --no-sweep \
    --no-baseline --json "$json2" </dev/null || {
    echo "FAIL: the benchmark (all-to-alls) exited with $?"
    exit 1
}
python3 - "$json" "$json2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d2 = json.load(open(sys.argv[2]))
rows = d["rows"] + d2["rows"]
bad = 0
def fail(msg):
    global bad
    print("FAIL:", msg)
    bad = 1
four = [r for r in rows if r["row"] == "four-step"]
if len(four) != 6:
    fail("expected 6 four-step rows, got %d" % len(four))
for r in rows:
    if r.get("error") == "unavailable":
        continue
    if not r.get("verified"):
        fail("row %s n=%d not verified: %s" % (r["row"], r["n"], r.get("error")))
    if len(r.get("reps_s", [])) != 3:
        fail("row %s n=%d: %d repetitions" % (r["row"], r["n"], len(r.get("reps_s", []))))
moved = {}
for r in four:
    calls = r["mpi_calls_per_call"]
    if r.get("exchange") == "shared-window":
        # No data through MPI: the two agreements and the closing one.
        want = (0, 0, 3)
    else:
        want = (2 * r.get("pieces", 0), 2 * r.get("pieces", 0), 1)
        if r.get("pieces") != 2:
            fail("four-step n=%d: %s pieces, expected 2" % (r["n"], r.get("pieces")))
        if len(r["bytes_sent_per_rank"]) != 3 or min(r["bytes_sent_per_rank"]) <= 0:
            fail("four-step n=%d: bytes %s" % (r["n"], r["bytes_sent_per_rank"]))
    got = (r.get("alltoalls_per_call"), calls.get("MPI_Ialltoallv", 0), calls.get("MPI_Allreduce", 0))
    if got != want:
        fail("four-step n=%d (%s): all-to-alls, MPI_Ialltoallv, MPI_Allreduce per product %s, "
             "expected %s; calls %s" % (r["n"], r.get("exchange"), got, want, calls))
    if not r.get("calls_same_on_all_ranks"):
        fail("four-step n=%d: ranks made different MPI calls" % r["n"])
    if r.get("bytes_per_rank_per_product", 0) <= 0:
        fail("four-step n=%d: bytes per rank %s" % (r["n"], r.get("bytes_per_rank_per_product")))
    moved.setdefault(r["n"], set()).add(r.get("bytes_per_rank_per_product"))
for n, b in moved.items():
    if len(b) != 1:
        fail("n=%d: bytes per rank differ between the exchanges: %s" % (n, sorted(b)))
if {r.get("exchange") for r in four} != {"shared-window", "alltoall"}:
    fail("exchanges run: %s" % {r.get("exchange") for r in four})
for r in rows:
    if r["row"] == "master-slave" and r.get("verified"):
        c = r["mpi_calls_per_call"]
        if c.get("MPI_Bcast") != 1 or c.get("MPI_Allgatherv") != 1 or r["alltoalls_per_call"] != 0:
            fail("master-slave n=%d: calls %s" % (r["n"], c))
print("bench counts:", "FAILED" if bad else "ok")
sys.exit(bad)
PY

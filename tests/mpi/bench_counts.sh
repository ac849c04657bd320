#!/bin/sh
# bench_counts.sh "MPIEXEC -n" "FLAGS" NTT_BENCH WORK  (runs NTT_BENCH mpi ...)
# The MPI benchmark on 3 ranks at small sizes: it must verify every row and
# its PMPI wrapper must count exactly two all-to-alls per four-step product
# (and none for the master-slave baseline, which broadcasts and gathers).
set -u
mpiexec=$1
flags=$2
exe=$3
work=$4
mkdir -p "$work"
json="$work/bench_counts.json"
rm -f "$json"
# shellcheck disable=SC2086
$mpiexec 3 $flags "$exe" mpi --n 8,11,14 --reps 3 --no-sweep --json "$json" </dev/null || {
    echo "FAIL: the benchmark exited with $?"
    exit 1
}
python3 - "$json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
bad = 0
def fail(msg):
    global bad
    print("FAIL:", msg)
    bad = 1
four = [r for r in rows if r["row"] == "four-step"]
if len(four) != 3:
    fail("expected 3 four-step rows, got %d" % len(four))
for r in rows:
    if r.get("error") == "unavailable":
        continue
    if not r.get("verified"):
        fail("row %s n=%d not verified: %s" % (r["row"], r["n"], r.get("error")))
    if len(r.get("reps_s", [])) != 3:
        fail("row %s n=%d: %d repetitions" % (r["row"], r["n"], len(r.get("reps_s", []))))
for r in four:
    if r.get("alltoalls_per_call") != 2 or r["mpi_calls_per_call"].get("MPI_Alltoallv") != 2:
        fail("four-step n=%d: %s all-to-alls per product, calls %s"
             % (r["n"], r.get("alltoalls_per_call"), r.get("mpi_calls_per_call")))
    if not r.get("calls_same_on_all_ranks"):
        fail("four-step n=%d: ranks made different MPI calls" % r["n"])
    if len(r["bytes_sent_per_rank"]) != 3 or min(r["bytes_sent_per_rank"]) <= 0:
        fail("four-step n=%d: bytes %s" % (r["n"], r["bytes_sent_per_rank"]))
for r in rows:
    if r["row"] == "master-slave" and r.get("verified"):
        c = r["mpi_calls_per_call"]
        if c.get("MPI_Bcast") != 1 or c.get("MPI_Allgatherv") != 1 or r["alltoalls_per_call"] != 0:
            fail("master-slave n=%d: calls %s" % (r["n"], c))
print("bench counts:", "FAILED" if bad else "ok")
sys.exit(bad)
PY

#!/bin/sh
# bench_smoke.sh NTT_BENCH WORK
# ntt-bench's CPU tables at small sizes: every row verified against GMP (a
# FAILED row makes the exit status nonzero), the table printed, the JSON
# written with the raw repetitions.  Timings here mean nothing; the code
# paths and the checks are what is tested.
set -u
bench=$1 work=$2
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"

run 0 "$bench" table --n 1024 --primes 469762049,1000000007 --reps 3 --json "$work/table.json"
grep -q "FAILED" "$work/last.out" && fail "table: a row failed: $(cat "$work/last.out")"
grep -q "ntt scalar, shoup (default) again" "$work/last.out" || fail "table: no 'again' row"
grep -q '"reps_s": \[' "$work/table.json" || fail "table --json has no raw repetitions"
echo "ok: ntt-bench table"

run 0 "$bench" ladder --quick --n 1024 --primes 469762049 --threads 1,2 --reps 2 \
    --sections ladder,crt,scaling --scaling 10-11 --json "$work/ladder.json"
grep -q "FAILED" "$work/last.out" && fail "ladder: a row failed: $(cat "$work/last.out")"
grep -q '"section": "scaling"' "$work/ladder.json" || fail "ladder --json lacks the scaling tables"
grep -q '"section": "crt"' "$work/ladder.json" || fail "ladder --json lacks the CRT tables"
echo "ok: ntt-bench ladder"

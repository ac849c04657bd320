#!/bin/sh
# course_data.sh NTT DATA WORK
# Every DATA/*.in (tests/data) through `ntt mul` on every available backend,
# to a file and to standard output, each checked with `ntt verify` and byte
# for byte against its .out; then `ntt cases DATA` must report every row
# correct.
set -u
ntt=$1 data=$2 work=$3
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"

backends=$(available_backends "$ntt")
[ -n "$backends" ] || fail "ntt info lists no available backend"

ncases=0
for in in "$data"/*.in; do
    [ -e "$in" ] || fail "no .in files in $data"
    out=${in%.in}.out
    [ -f "$out" ] || fail "$in has no .out"
    ncases=$((ncases + 1))
    for b in auto $backends; do
        run 0 "$ntt" mul "$in" --backend "$b" -o "$work/product"
        run 0 "$ntt" verify "$work/product" "$out"
        grep -q '^OK (' "$work/last.out" || fail "verify did not say OK for $in on $b"
        cmp -s "$work/product" "$out" || fail "$in on $b: not byte-identical to $out"
        run 0 "$ntt" mul "$in" --backend "$b"
        cmp -s "$work/last.out" "$out" || fail "$in on $b (stdout): not byte-identical to $out"
        echo "ok: $in on $b"
    done
done

run 0 "$ntt" cases "$data" --reps 2 --json "$work/cases.json"
nb=$(printf '%s\n' $backends | wc -l)
want=$((ncases * nb))
got=$(grep -c ' correct$' "$work/last.out")
[ "$got" -eq "$want" ] || { cat "$work/last.out"; fail "cases: $got correct rows, expected $want"; }
grep -q 'CLOCK_MONOTONIC' "$work/last.out" || fail "cases: the table does not state the timing method"
head -c 1 "$work/cases.json" | grep -q '{' || fail "cases --json wrote no JSON object"
grep -q '"times_s": \[' "$work/cases.json" || fail "cases --json has no raw times"
echo "ok: ntt cases $data: $got correct rows"

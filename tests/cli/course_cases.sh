#!/bin/sh
# course_cases.sh NTT NTT_BENCH DATA WORK
# The course's workflow, as scripts/run.sh runs it: case 0 from DATA plus the
# four large cases (n = 131072, the course's moduli) made with `ntt gen`,
# their expected products with `ntt-bench oracle` (GMP), then
# `ntt cases WORK` must find every row correct, in id order.
set -u
ntt=$1 bench=$2 data=$3 work=$4
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"

cp "$data/0.in" "$data/0.out" "$work/" || fail "cannot copy case 0"
id=1
for p in 7340033 104857601 469762049 1337006139375617; do
    run 0 "$ntt" gen 131072 "$p" --seed "$id" -o "$work/$id.in"
    run 0 "$bench" oracle "$work/$id.in" -o "$work/$id.out"
    id=$((id + 1))
done

run 0 "$ntt" cases "$work" --reps 3
nb=$(available_backends "$ntt" | wc -l)
got=$(grep -c ' correct$' "$work/last.out")
[ "$got" -eq $((5 * nb)) ] || { cat "$work/last.out"; fail "$got correct rows, expected $((5 * nb))"; }
# Rows in numeric id order: the first column of the rows reads 0 1 2 3 4.
order=$(sed -n '/^id /,$p' "$work/last.out" | awk 'NR > 1 { print $1 }' | uniq | tr '\n' ' ')
[ "$order" = "0 1 2 3 4 " ] || fail "rows are not in id order: $order"
# Units: every time is a number in [1, 1000) followed by ns, us, ms or s.
bad=$(sed -n '/^id /,$p' "$work/last.out" | awk 'NR > 1 {
        for (i = 5; i <= 9; i += 2)
            if ($i + 0 < 1 || $i + 0 >= 1000 || $(i + 1) !~ /^(ns|us|ms|s)$/) print }')
[ -z "$bad" ] || fail "badly scaled times: $bad"
cat "$work/last.out"

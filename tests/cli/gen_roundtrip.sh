#!/bin/sh
# gen_roundtrip.sh NTT NTT_BENCH WORK
# `ntt gen`, then `ntt-bench oracle` (GMP) for the expected product, then
# `ntt mul` and `ntt verify`, for the course prime 469762049 at n = 1, 2,
# 1000, 131072 and for moduli that take the CRT path; gen must be
# deterministic and follow the course format, and the oracle must agree
# with itself on standard output.
set -u
ntt=$1 bench=$2 work=$3
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"

for case in "1 469762049" "2 469762049" "1000 469762049" "131072 469762049" \
            "1000 1000000007" "777 9223372036854775783" "1000 2305843009213693951" "5 2"; do
    set -- $case
    n=$1 p=$2
    f=$work/$n-$p
    run 0 "$ntt" gen "$n" "$p" --seed 42 -o "$f.in"
    [ "$(head -n 1 "$f.in")" = "$n $p" ] || fail "gen $n $p: first line is not \"$n $p\""
    [ "$(wc -l <"$f.in")" -eq 3 ] || fail "gen $n $p: not three lines"
    run 0 "$bench" oracle "$f.in" -o "$f.exp"
    run 0 "$ntt" mul "$f.in" -o "$f.out"
    run 0 "$ntt" verify "$f.out" "$f.exp"
    grep -q "^OK ($((2 * n - 1)) coefficients)" "$work/last.out" || fail "verify $n $p: $(cat "$work/last.out")"
    # Same arguments, same file, also on standard output.
    run 0 "$ntt" gen "$n" "$p" --seed 42
    cmp -s "$work/last.out" "$f.in" || fail "gen $n $p --seed 42 is not deterministic"
    run 0 "$bench" oracle "$f.in"
    cmp -s "$work/last.out" "$f.exp" || fail "oracle $n $p: standard output differs from -o"
    echo "ok: n=$n p=$p"
done

run 0 "$ntt" gen 1000 469762049 --seed 43 -o "$work/other.in"
cmp -s "$work/other.in" "$work/1000-469762049.in" && fail "seeds 42 and 43 gave the same file"
echo "ok: different seeds differ"

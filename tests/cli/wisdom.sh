#!/bin/sh
# wisdom.sh NTT WORK
# `ntt wisdom` (issue 63): a progress line per size on standard error, the
# wisdom on standard output or in -o FILE (this machine's fingerprint, a
# plan line per prime size and work, "end"), the system wisdom read from
# NTT_WISDOM (its answers kept in the next file), bad options refused.
set -u
ntt=$1 work=$2
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
export NTT_WISDOM=off

run 0 "$ntt" wisdom --min-log2 6 --max-log2 7
[ "$(grep -c '^ntt wisdom: 2^[67]: 12 plans, ' "$work/last.err")" -eq 2 ] ||
    fail "no progress line per size: $(cat "$work/last.err")"
head -n 2 "$work/last.out" | tail -n 1 | grep -q '^machine cpu=' || fail "no machine line"
[ "$(head -n 1 "$work/last.out")" = "ntt-wisdom 1" ] || fail "no header"
[ "$(tail -n 1 "$work/last.out")" = "end" ] || fail "no end line"
[ "$(grep -c '^plan ' "$work/last.out")" -eq 24 ] || fail "not 24 plan lines"
echo "ok: standard output"

run 0 "$ntt" wisdom --min-log2 5 --max-log2 5 -o "$work/w1"
cmp -s "$work/w1" "$work/last.out" && fail "-o FILE also wrote standard output"
[ "$(grep -c '^plan .*logn=5 ' "$work/w1")" -eq 12 ] || fail "-o: not 12 plan lines"
# The system wisdom (NTT_WISDOM) is read and kept.
NTT_WISDOM=$work/w1 run 0 "$ntt" wisdom --min-log2 4 --max-log2 4 -o "$work/w2"
grep -q 'logn=5 ' "$work/w2" || fail "NTT_WISDOM's answers were not read"
grep -q 'logn=4 ' "$work/w2" || fail "no new answers"
echo "ok: -o FILE and NTT_WISDOM"

run 2 "$ntt" wisdom --mode fast
run 2 "$ntt" wisdom --time-limit -1
run 2 "$ntt" wisdom --min-log2 9 --max-log2 8
run 2 "$ntt" wisdom --backend gpu9
echo "ok: bad options"

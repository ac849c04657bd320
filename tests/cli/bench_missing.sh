#!/bin/sh
# bench_missing.sh NTT WORK
# `ntt bench` where ntt-bench is neither beside the ntt binary nor in PATH:
# exit status 7 and a message saying that ntt-bench is not built or not
# installed.
set -u
ntt=$1 work=$2
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
cp "$ntt" "$work/ntt" || fail "cannot copy $ntt"
PATH=$work/no-such-dir run 7 "$work/ntt" bench table
grep -q "ntt-bench is not built or not installed" "$work/last.err" ||
    fail "no clear message: $(cat "$work/last.err")"
echo "ok: ntt bench without ntt-bench exits 7"

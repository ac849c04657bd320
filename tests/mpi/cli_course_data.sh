#!/bin/sh
# cli_course_data.sh "MPIEXEC -n" "FLAGS" NTT_MPI DATA WORK
# Multiplies every DATA/*.in with ntt-mpi on 1, 2, 3 and 4 ranks, and on
# 2 ranks x 2 threads (--threads 2), and compares the output file, byte for
# byte, with the .out beside it (the format ntt_coeffs_write shares with
# `ntt mul`); also the product on standard output once.
set -u
mpiexec=$1
flags=$2
exe=$3
examples=$4
work=$5
mkdir -p "$work"
fail=0
for in in "$examples"/*.in; do
    id=$(basename "$in" .in)
    want="$examples/$id.out"
    [ -f "$want" ] || continue
    for np in 1 2 3 4 2x2; do
        ranks=${np%x2}
        threads=
        [ "$np" = 2x2 ] && threads="--threads 2"
        out="$work/$id.np$np.out"
        rm -f "$out"
        # shellcheck disable=SC2086
        if ! $mpiexec $ranks $flags "$exe" mul "$in" -o "$out" $threads </dev/null; then
            echo "FAIL: $id on $np ranks: exit status $?"
            fail=1
        elif ! cmp -s "$out" "$want"; then
            echo "FAIL: $id on $np ranks: $out differs from $want"
            fail=1
        else
            echo "ok: $id on $np ranks"
        fi
    done
done
# shellcheck disable=SC2086
$mpiexec 2 $flags "$exe" mul "$examples/0.in" >"$work/stdout.out" </dev/null || fail=1
cmp -s "$work/stdout.out" "$examples/0.out" || { echo "FAIL: 0.in to standard output"; fail=1; }
exit $fail

#!/bin/sh
# mpmd.sh MPIEXEC NPFLAG "FLAGS" NTT_MPI DATA WORK
# ntt-mpi with a different command line on each rank (an MPMD launch,
# "mpiexec -n 1 A : -n 1 B"), issue 62 items 1 and 2: an error on some ranks
# only (a bad option, --help, a bad --threads, a backend missing there) must
# end every rank with the same exit code and one message from rank 0, never
# a hang; each run is bounded by `timeout`.  Also "-" as standard input and
# output under mpiexec, and escaped input bytes in ntt-mpi's messages.
set -u
mpiexec=$1 np=$2 flags=$3 exe=$4 data=$5 work=$6
limit=60
in=$data/0.in
rm -rf "$work" && mkdir -p "$work" || exit 1
fails=0

fail() {
    echo "FAIL: $*"
    echo "---- stdout ----"
    head -n 20 "$work/out"
    echo "---- stderr ----"
    head -n 20 "$work/err"
    fails=$((fails + 1))
}

# launch CODE ARGS...: runs timeout LIMIT mpiexec FLAGS ARGS... and checks
# the exit status (124: the run hung).
launch() {
    want=$1
    shift
    what="$*"
    # shellcheck disable=SC2086
    timeout "$limit" $mpiexec $flags "$@" >"$work/out" 2>"$work/err" <"${stdin:-/dev/null}"
    got=$?
    if [ "$got" -eq 124 ]; then
        fail "hung (killed after $limit s): $what"
        return 1
    fi
    if [ "$got" -ne "$want" ]; then
        fail "exit status $got, expected $want: $what"
        return 1
    fi
    return 0
}
has() { # has STREAM TEXT
    grep -F -q -e "$2" "$work/$1" || fail "$1 lacks '$2': $what"
}
count() { # count STREAM TEXT N: TEXT on exactly N lines
    c=$(grep -F -c -e "$2" "$work/$1")
    [ "$c" -eq "$3" ] || fail "'$2' $c times on $1, expected $3: $what"
}

# A bad option on rank 1 only, on rank 0 only, on the last of three ranks.
if launch 2 "$np" 1 "$exe" mul "$in" : "$np" 1 "$exe" mul "$in" --frob; then
    count err "ntt-mpi mul: unknown option '--frob'" 1
    has err "rank 1's (of 2 ranks); not every rank had it"
fi
if launch 2 "$np" 1 "$exe" mul "$in" --frob : "$np" 1 "$exe" mul "$in"; then
    count err "ntt-mpi mul: unknown option '--frob'" 1
    has err "rank 0's (of 2 ranks)"
fi
if launch 2 "$np" 2 "$exe" mul "$in" : "$np" 1 "$exe" mul "$in" --output; then
    count err "ntt-mpi mul: option '--output' needs a value" 1
    has err "rank 2's (of 3 ranks)"
fi
# The same error everywhere: one message, no word about ranks.
if launch 2 "$np" 2 "$exe" mul "$in" --frob; then
    count err "unknown option '--frob'" 1
    grep -F -q "rank" "$work/err" && fail "a uniform error names a rank: $what"
fi
# --help on one rank: every rank exits 0, the usage once.
if launch 0 "$np" 1 "$exe" mul "$in" : "$np" 1 "$exe" mul "$in" --help; then
    count out "usage: mpiexec -n P ntt-mpi mul" 1
fi
# An error wins over another rank's --help.
if launch 2 "$np" 1 "$exe" mul --help : "$np" 1 "$exe" mul "$in" --threads x; then
    has err "ntt-mpi mul: --threads wants a whole number in [0, 4096], not 'x'"
fi
# No command, an unknown command, a missing FILE on one rank.
launch 2 "$np" 1 "$exe" mul "$in" : "$np" 1 "$exe" && has err "usage: mpiexec -n P ntt-mpi mul"
launch 2 "$np" 1 "$exe" frob : "$np" 1 "$exe" mul "$in" && has err "ntt-mpi: unknown command 'frob'"
launch 2 "$np" 1 "$exe" mul "$in" : "$np" 1 "$exe" mul && has err "ntt-mpi mul: missing input FILE"
# Rank 1's own command line matters only where it must: its FILE and -o are
# rank 0's business.
if launch 0 "$np" 1 "$exe" mul "$in" -o "$work/p.out" : "$np" 1 "$exe" mul other.in; then
    cmp -s "$work/p.out" "$data/0.out" || fail "MPMD product differs from 0.out: $what"
fi

# A backend missing on rank 1 only: the message names rank 1's backend and
# rank 1 (not rank 0's scalar).
missing=
for b in cuda avx512 avx2; do
    if timeout "$limit" $mpiexec $flags "$np" 1 "$exe" mul "$in" --backend $b \
        >/dev/null 2>&1 </dev/null; then
        :
    elif [ $? -eq 7 ]; then
        missing=$b
        break
    fi
done
if [ -n "$missing" ]; then
    if launch 7 "$np" 1 "$exe" mul "$in" --backend scalar : "$np" 1 "$exe" mul "$in" \
        --backend "$missing"; then
        count err "ntt-mpi mul: backend '$missing' is not available on rank 1" 1
        grep -F -q "backend 'scalar'" "$work/err" && fail "names rank 0's backend: $what"
    fi
else
    echo "note: every backend is available here; the mixed-backend case is not run"
fi

# "-": rank 0 reads standard input and writes standard output.
stdin=$in
if launch 0 "$np" 2 "$exe" mul - -o -; then
    cmp -s "$work/out" "$data/0.out" || fail "mul - -o -: standard output differs from 0.out"
    [ ! -e ./- ] && [ ! -e "$work/-" ] || fail "mul -o -: a file named - was written"
fi
stdin=

# Input bytes in messages: escaped, every byte (after a NUL too), bounded.
printf '2 7\n1 33\0007\033]0;t\007\n3 4\n' >"$work/nul.in"
if launch 4 "$np" 2 "$exe" mul "$work/nul.in"; then
    count err "nul.in:2: token 2: coefficient \"33\\x007\\x1b]0;t\\x07\" is not a decimal number" 1
    left=$(LC_ALL=C tr -d '\n -~' <"$work/err" | wc -c)
    [ "$left" -eq 0 ] || fail "$left raw bytes on standard error: $what"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok: ntt-mpi agrees on every rank's command line"

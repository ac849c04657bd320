# Helpers for the CLI test scripts (sourced, POSIX sh).

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# run CODE CMD...: runs CMD with its output in $work/last.out / last.err and
# fails unless it exits with CODE.
run() {
    want=$1
    shift
    "$@" >"$work/last.out" 2>"$work/last.err" </dev/null
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "command: $*" >&2
        echo "---- stdout ----" >&2
        head -n 20 "$work/last.out" >&2
        echo "---- stderr ----" >&2
        head -n 20 "$work/last.err" >&2
        fail "exit status $got, expected $want"
    fi
}

# The backends `ntt info` reports as available, one a line.
available_backends() {
    "$1" info | sed -n 's/^  \([a-z0-9]*\)  *available$/\1/p'
}

# A fresh, empty working directory.
fresh_dir() {
    rm -rf "$1" && mkdir -p "$1" || fail "cannot create $1"
}

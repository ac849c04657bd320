#!/bin/sh
# expect_exit.sh CODE [--stderr TEXT]... [--stdout TEXT]... [--] CMD [ARG...]
#
# Runs CMD and fails unless it exits with exactly CODE and each TEXT occurs
# (as a fixed string) in its standard error / standard output.  On failure
# both outputs are shown, so a ctest log says what the command did.
set -u

if [ $# -lt 2 ]; then
    echo "usage: expect_exit.sh CODE [--stderr TEXT]... [--stdout TEXT]... [--] CMD [ARG...]" >&2
    exit 2
fi
want=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/expect_exit.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/err_checks"
: >"$tmp/out_checks"
# Fragments go to files, one a line, because POSIX sh has no arrays.
while [ $# -gt 0 ]; do
    case $1 in
    --stderr) printf '%s\n' "$2" >>"$tmp/err_checks"; shift 2 ;;
    --stdout) printf '%s\n' "$2" >>"$tmp/out_checks"; shift 2 ;;
    --) shift; break ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "expect_exit.sh: no command" >&2; exit 2; }

"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
got=$?

fail=0
if [ "$got" -ne "$want" ]; then
    echo "FAIL: exit status $got, expected $want" >&2
    fail=1
fi
while IFS= read -r frag; do
    if ! grep -F -q -e "$frag" "$tmp/err"; then
        echo "FAIL: standard error lacks: $frag" >&2
        fail=1
    fi
done <"$tmp/err_checks"
while IFS= read -r frag; do
    if ! grep -F -q -e "$frag" "$tmp/out"; then
        echo "FAIL: standard output lacks: $frag" >&2
        fail=1
    fi
done <"$tmp/out_checks"

if [ "$fail" -ne 0 ]; then
    echo "command: $*" >&2
    echo "---- stdout (first 40 lines) ----" >&2
    head -n 40 "$tmp/out" >&2
    echo "---- stderr (first 40 lines) ----" >&2
    head -n 40 "$tmp/err" >&2
    exit 1
fi
echo "ok: exit $got: $*"
exit 0

#!/bin/sh
# stdio.sh NTT DATA WORK [NTT_BENCH]
# "-" names standard input or output wherever a file is read or written:
# ntt mul, gen, verify, cases --json and ntt-bench oracle.  "-o -" writes no
# file named "-"; a file named "-" is reached as ./-.
set -u
ntt=$1 data=$2 work=$3 bench=${4:-}
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
cd "$work" || fail "cannot enter $work"
expect=$(cat "$data/0.out")

# same WHAT FILE: FILE holds the expected product.
same() {
    [ "$(cat "$2")" = "$expect" ] || fail "$1: got '$(cat "$2")', expected '$expect'"
}
no_dash_file() {
    [ ! -e ./- ] || fail "$1 wrote a file named -"
}

"$ntt" mul - <"$data/0.in" >out 2>err || fail "ntt mul - < 0.in: exit $? ($(cat err))"
same "ntt mul -" out
"$ntt" mul "$data/0.in" -o - >out 2>err </dev/null || fail "ntt mul 0.in -o -: exit $?"
same "ntt mul 0.in -o -" out
no_dash_file "ntt mul -o -"
"$ntt" mul --output=- - <"$data/0.in" >out 2>err || fail "ntt mul --output=- -: exit $?"
same "ntt mul --output=- -" out
no_dash_file "ntt mul --output=-"
# After --, "-" is still standard input (it is no option).
"$ntt" mul -- - <"$data/0.in" >out 2>err || fail "ntt mul -- -: exit $?"
same "ntt mul -- -" out

# A file named - is ./-.
cp "$data/0.in" ./- || fail "cannot copy"
"$ntt" mul ./- >out 2>err </dev/null || fail "ntt mul ./-: exit $?"
same "ntt mul ./-" out
rm -f ./-

# Messages name standard input.
printf '4 7340033\n4 1 x5 2\n1 5 5 4\n' | "$ntt" mul - >out 2>err
code=$?
[ "$code" -eq 4 ] || fail "malformed standard input: exit $code, expected 4"
grep -F -q "ntt mul: standard input:2: token 3: coefficient \"x5\" is not a decimal number" err ||
    fail "malformed standard input: message '$(cat err)'"
: | "$ntt" mul - >out 2>err
[ $? -eq 4 ] || fail "empty standard input: exit status"
grep -F -q "ntt mul: standard input:1: file ends before the header" err ||
    fail "empty standard input: message '$(cat err)'"

# gen -o - is gen without -o.
"$ntt" gen 5 7340033 --seed 3 -o - >g1 </dev/null || fail "ntt gen -o -: exit $?"
"$ntt" gen 5 7340033 --seed 3 >g2 </dev/null || fail "ntt gen: exit $?"
cmp -s g1 g2 || fail "ntt gen -o - differs from ntt gen"
[ -s g1 ] || fail "ntt gen -o - wrote nothing"
no_dash_file "ntt gen -o -"

# verify reads one of its files from standard input; both is a usage error.
"$ntt" verify - "$data/0.out" <"$data/0.out" >out 2>err || fail "ntt verify - EXPECTED: exit $?"
grep -F -q "OK (7 coefficients)" out || fail "ntt verify - EXPECTED: '$(cat out)'"
printf '4 21 30 48 39 30 9\n' | "$ntt" verify "$data/0.out" - >out 2>err
[ $? -eq 1 ] || fail "ntt verify OUT - (different): exit status"
grep -F -q "standard input has 9" out || fail "ntt verify OUT -: '$(cat out)'"
"$ntt" verify - - <"$data/0.out" >out 2>err
[ $? -eq 2 ] || fail "ntt verify - -: exit status"
grep -F -q "ntt verify: standard input" err || fail "ntt verify - -: '$(cat err)'"

# cases --json - puts the JSON on standard output after the table.
mkdir cases && cp "$data/0.in" "$data/0.out" cases/ || fail "cannot make cases/"
"$ntt" cases cases --backend scalar --reps 1 --json - >out 2>err </dev/null ||
    fail "ntt cases --json -: exit $? ($(cat err))"
grep -F -q '"command": "ntt cases"' out || fail "ntt cases --json -: no JSON on standard output"
grep -F -q "correct" out || fail "ntt cases --json -: no table"
no_dash_file "ntt cases --json -"

if [ -n "$bench" ]; then
    "$bench" oracle - <"$data/0.in" >out 2>err || fail "ntt-bench oracle -: exit $?"
    same "ntt-bench oracle -" out
    "$bench" oracle "$data/0.in" -o - >out 2>err </dev/null || fail "ntt-bench oracle -o -: exit $?"
    same "ntt-bench oracle 0.in -o -" out
    no_dash_file "ntt-bench oracle -o -"
fi
echo "ok: - is standard input and output"

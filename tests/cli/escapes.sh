#!/bin/sh
# escapes.sh PROGRAM WORK [SUBCOMMAND]
# Input bytes in messages (issue 62 item 3): a token holding an escape
# sequence, control bytes, invalid UTF-8 or a NUL is shown escaped (\xNN,
# \\, \") and bounded, every byte of it up to the bound (those after a NUL
# too), and nothing but printable ASCII reaches standard error.  PROGRAM is
# ntt (SUBCOMMAND mul, the default) or ntt-bench (SUBCOMMAND oracle); ntt
# verify (the list reader) and the command line's own arguments are checked
# for ntt.
set -u
prog=$1 work=$2 sub=${3:-mul}
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"

# Standard error holds printable ASCII and newlines only.
clean() {
    left=$(LC_ALL=C tr -d '\n -~' <"$work/last.err" | wc -c)
    [ "$left" -eq 0 ] || { cat "$work/last.err" >&2; fail "$1: $left raw bytes on standard error"; }
}
# expect_in WHAT TEXT: TEXT is in standard error.
expect_in() {
    grep -F -q -e "$2" "$work/last.err" || { cat "$work/last.err" >&2; fail "$1: lacks $2"; }
}
# case NAME CODE EXPECTED FORMAT: a course file whose second coefficient of
# a is printf FORMAT; PROGRAM SUB exits CODE and shows EXPECTED.
case_a() {
    name=$1 code=$2 shown=$3 fmt=$4
    { printf '2 7\n1 '; printf -- "$fmt"; printf '\n3 4\n'; } >"$work/$name.in"
    run "$code" "$prog" "$sub" "$work/$name.in"
    clean "$name"
    expect_in "$name" "$work/$name.in:2: token 2: coefficient \"$shown\""
}

# A terminal title (OSC) and a screen clear (CSI).
case_a osc 4 '\x1b]0;pwned\x07' '\033]0;pwned\007'
case_a csi 4 '\x1b[2J\x1b[H' '\033[2J\033[H'
# Control bytes, DEL, and a NUL with bytes after it.
case_a control 4 '1\x01\x02\x7f' '1\001\002\177'
case_a nul 4 '33\x007' '33\0007'
expect_in nul "coefficient \"33\\x007\" is not a decimal number"
# Invalid UTF-8 (a lone continuation byte, an overlong NUL, 0xff), and valid
# UTF-8, which is escaped too: a terminal's only safe bytes are ASCII.
case_a utf8_bad 4 '\x80\xc0\x80\xff' '\200\300\200\377'
case_a utf8_ok 4 '\xc3\xa9' '\303\251'
# Backslash and quotes.
case_a quotes 4 "a\\\\\\\"b\\'" 'a\\"b'"'"
# A negative number keeps its own message, escaped the same.
case_a negative 4 '-1\x1b' '-1\033'
expect_in negative "is negative"

# Bounded: at most 40 bytes shown, then "...".
long=$(printf '%060d' 0 | tr 0 x)
printf '2 7\n1 %s\n3 4\n' "$long" >"$work/long.in"
run 4 "$prog" "$sub" "$work/long.in"
clean long
expect_in long "coefficient \"$(printf '%040d' 0 | tr 0 x)...\" is"
grep -F -q "$(printf '%041d' 0 | tr 0 x)" "$work/last.err" && fail "long: more than 40 bytes shown"
# A long run of control bytes: bounded in characters (10 bytes, 40 chars).
{ printf '2 7\n1 '; i=0; while [ $i -lt 30 ]; do printf '\001'; i=$((i + 1)); done; printf '\n3 4\n'; } \
    >"$work/long_ctl.in"
run 4 "$prog" "$sub" "$work/long_ctl.in"
clean long_ctl
expect_in long_ctl "coefficient \"\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01...\" is"
# A NUL and what follows it after the 2n coefficients.
printf '1 7\n1\n2\n9\0009\033c\n' >"$work/trailing.in"
run 4 "$prog" "$sub" "$work/trailing.in"
clean trailing
expect_in trailing "unexpected \"9\\x009\\x1bc\" after the 2n = 2 coefficients"

[ "$sub" = mul ] || { echo "ok: $prog $sub escapes input bytes"; exit 0; }

# The list reader (ntt verify).
printf '1 2\n3 \033]2;x\007\n' >"$work/list.out"
run 4 "$prog" verify "$work/list.out" "$work/list.out"
clean verify
expect_in verify "list.out:2: token 2: value \"\\x1b]2;x\\x07\" is not a decimal number"
# The command line: options and values are user text too.
esc=$(printf '\033')
run 2 "$prog" mul "$work/osc.in" "--x${esc}[2J"
clean option
expect_in option "ntt mul: unknown option '--x\\x1b[2J'"
run 2 "$prog" mul "$work/osc.in" --backend "q${esc}]0;t"
clean backend
expect_in backend "ntt mul: unknown backend 'q\\x1b]0;t'"
run 2 "$prog" gen 4 "7${esc}c" --seed 1
clean gen
expect_in gen "ntt gen: P must be a whole number in [2, 2^63), not '7\\x1bc'"
run 2 "$prog" cases "$work" --reps "1${esc}"
clean reps
expect_in reps "ntt cases: --reps wants a whole number in [1, 1000000], not '1\\x1b'"
# The environment is user text too: NTT_BACKEND naming no backend (issue
# 62.8), in the refusal of mul and in info.
run 2 env NTT_BACKEND="x${esc}]0;t$(printf '\007')" "$prog" mul "$work/osc.in"
clean env_backend
expect_in env_backend "ntt mul: NTT_BACKEND=\"x\x1b]0;t\x07\" names no backend"
run 0 env NTT_BACKEND="x${esc}c" "$prog" info
cp "$work/last.out" "$work/last.err"
clean env_backend_info
expect_in env_backend_info "NTT_BACKEND=\"x\x1bc\" names no backend"
echo "ok: $prog escapes input bytes and arguments"

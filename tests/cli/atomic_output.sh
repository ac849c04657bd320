#!/bin/sh
# atomic_output.sh NTT DATA WORK
# Output files are written atomically: a failed run leaves an existing OUT
# byte-identical and creates no OUT; no temporary files are left behind; an
# output path that cannot be written gives exit status 6.
set -u
ntt=$1 data=$2 work=$3
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"

printf 'an existing file\n' >"$work/out"
cp "$work/out" "$work/out.orig"
printf '4 7340033\n4 1 5 2\n1 5 x 4\n' >"$work/bad_format.in"
printf '4 7340033\n4 1 5 2\n1 5 7340033 4\n' >"$work/bad_range.in"
printf '4 7340033\n4 1 5 2\n1 5 5\n' >"$work/truncated.in"

# Bad input: OUT untouched.
run 4 "$ntt" mul "$work/bad_format.in" -o "$work/out"
cmp -s "$work/out" "$work/out.orig" || fail "malformed input changed OUT"
run 5 "$ntt" mul "$work/bad_range.in" -o "$work/out"
cmp -s "$work/out" "$work/out.orig" || fail "out-of-range input changed OUT"
run 4 "$ntt" mul "$work/truncated.in" -o "$work/out"
cmp -s "$work/out" "$work/out.orig" || fail "truncated input changed OUT"
run 2 "$ntt" mul "$work/bad_format.in" --backend nonsense -o "$work/out"
cmp -s "$work/out" "$work/out.orig" || fail "a usage error changed OUT"
echo "ok: an existing OUT is left as it was"

# Missing input: no OUT created.
run 3 "$ntt" mul "$work/missing.in" -o "$work/new.out"
[ ! -e "$work/new.out" ] || fail "a missing input created OUT"
run 4 "$ntt" mul "$work/bad_format.in" -o "$work/new.out"
[ ! -e "$work/new.out" ] || fail "a malformed input created OUT"
echo "ok: no OUT for a failed run"

# Success replaces OUT completely.
run 0 "$ntt" mul "$data/0.in" -o "$work/out"
cmp -s "$work/out" "$data/0.out" || fail "OUT is not the product after a successful run"
echo "ok: a successful run replaces OUT"

# Unwritable output paths: a directory, a path in a missing directory.
mkdir "$work/adir"
run 6 "$ntt" mul "$data/0.in" -o "$work/adir"
grep -q "cannot write" "$work/last.err" || fail "no 'cannot write' message: $(cat "$work/last.err")"
[ -d "$work/adir" ] && [ -z "$(ls -A "$work/adir")" ] || fail "the directory was changed"
run 6 "$ntt" mul "$data/0.in" -o "$work/no/such/dir/out"
run 6 "$ntt" gen 10 7 --seed 1 -o "$work/no/such/dir/x.in"
run 6 "$ntt" cases "$data" --reps 1 --json "$work/no/such/dir/x.json"
run 6 "$ntt" cases "$data" --reps 1 --json "$work/adir"
if [ "$(id -u)" -ne 0 ]; then
    # root ignores directory permissions, so this part runs for users only.
    mkdir "$work/ro" && chmod 555 "$work/ro"
    run 6 "$ntt" mul "$data/0.in" -o "$work/ro/out"
    chmod 755 "$work/ro"
fi
if [ -w /dev/full ]; then
    "$ntt" mul "$data/0.in" >/dev/full 2>"$work/last.err"
    [ $? -eq 6 ] || fail "writing the product to /dev/full did not exit 6"
    "$ntt" gen 100 7 --seed 1 >/dev/full 2>"$work/last.err"
    [ $? -eq 6 ] || fail "writing gen output to /dev/full did not exit 6"
fi
echo "ok: unwritable outputs exit 6"

# Nothing left behind by any of the above, successful or not.
stray=$(find "$work" -name '*.tmp.*')
[ -z "$stray" ] || fail "temporary files left: $stray"
echo "ok: no temporary files left"

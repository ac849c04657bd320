#!/bin/sh
# faults.sh NTT WORK [LOG2N]
# The command under faults (issue 51): outputs that cannot take the data
# (a FIFO and /dev/full written in place, a full tmpfs), a process killed
# while it writes a large product, the output path equal to the input, a
# header announcing n = 2^29 over a short file (under a memory limit), and a
# real product of two 2^LOG2N-coefficient inputs (default 20; the
# reliability script runs 23: a 2^24-coefficient product) checked at a
# random point.  Exact exit codes, messages that name the file, no partial
# output file.
set -u
ntt=$1 work=$2 log2n=${3:-20}
here=$(dirname "$0")
. "$here/lib.sh"
fresh_dir "$work"
p=998244353

# ---- a FIFO, then /dev/full: written in place, never replaced --------------
mkfifo "$work/fifo" || fail "mkfifo"
printf '2 7\n1 2\n3 4\n' >"$work/small.in"
cat "$work/fifo" >"$work/fifo.got" &
reader=$!
run 0 "$ntt" mul "$work/small.in" -o "$work/fifo"
wait $reader
[ -p "$work/fifo" ] || fail "the FIFO was replaced by the output"
[ "$(cat "$work/fifo.got")" = "3 3 1" ] || fail "the FIFO carried '$(cat "$work/fifo.got")'"
echo "ok: a FIFO output is written in place"
if [ -c /dev/full ] && [ -w /dev/full ]; then
    run 6 "$ntt" mul "$work/small.in" -o /dev/full
    grep -q "ntt mul: /dev/full: cannot write: No space left on device" "$work/last.err" ||
        fail "message: $(cat "$work/last.err")"
    [ -c /dev/full ] || fail "/dev/full is no longer a device"
    echo "ok: -o /dev/full exits 6 and names the file"
fi

# ---- a full file system: a 64 KiB tmpfs, mounted in a user namespace --------
"$ntt" gen 4096 $p --seed 7 -o "$work/mid.in" || fail "gen"
mkdir "$work/tmpfs"
if unshare -r -m sh -c "mount -t tmpfs -o size=64k ntt-test '$work/tmpfs'" 2>"$work/unshare.err"; then
    # One shell inside the namespace: an old OUT, the failing run, the checks.
    unshare -r -m sh -c "
        mount -t tmpfs -o size=64k ntt-test '$work/tmpfs' || exit 90
        printf 'old\n' >'$work/tmpfs/out' || exit 91
        '$ntt' mul '$work/mid.in' -o '$work/tmpfs/out' 2>'$work/tmpfs.err'
        echo \$? >'$work/tmpfs.rc'
        cat '$work/tmpfs/out' >'$work/tmpfs.out'
        ls -A '$work/tmpfs' >'$work/tmpfs.ls'
    " || fail "the tmpfs run could not be set up"
    [ "$(cat "$work/tmpfs.rc")" = 6 ] || fail "full tmpfs: exit $(cat "$work/tmpfs.rc"), expected 6"
    grep -q "$work/tmpfs/out: cannot write: No space left on device" "$work/tmpfs.err" ||
        fail "full tmpfs message: $(cat "$work/tmpfs.err")"
    [ "$(cat "$work/tmpfs.out")" = old ] || fail "full tmpfs: OUT changed"
    [ "$(cat "$work/tmpfs.ls")" = out ] || fail "full tmpfs: left $(cat "$work/tmpfs.ls")"
    echo "ok: a full tmpfs exits 6, OUT unchanged, no temporary file left"
else
    echo "skipped: a tmpfs cannot be mounted here ($(head -n 1 "$work/unshare.err"))"
fi

# ---- output path == input path: read whole first, then replaced -------------
cp "$work/mid.in" "$work/same.in"
run 0 "$ntt" mul "$work/mid.in" -o "$work/expected.out"
run 0 "$ntt" mul "$work/same.in" -o "$work/same.in"
cmp -s "$work/same.in" "$work/expected.out" || fail "-o INPUT: not the product"
echo "ok: -o equal to the input gives the product"

# ---- n = 2^29 announced, three coefficients present: no 8 GiB allocation ----
# (The peak resident size is measured rather than limited with ulimit -v,
# under which a sanitizer build cannot start.)
printf '536870912 %s\n1 2 3\n' $p >"$work/huge_header.in"
rss=$(python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=open(sys.argv[-1] + ".stdout", "w"),
                   stderr=open(sys.argv[-1] + ".stderr", "w"))
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
' "$ntt" mul "$work/huge_header.in" -o "$work/huge.out")
cp "$work/huge.out.stderr" "$work/last.err"
set -- $rss
[ "$1" -eq 4 ] || fail "n = 2^29 over a short file: exit $1, expected 4 ($(cat "$work/last.err"))"
[ "$2" -lt 1048576 ] || fail "n = 2^29 over a short file: peak resident size $2 KiB"
grep -q "huge_header.in:3: file ends after 3 of the 536870912 coefficients of a" "$work/last.err" ||
    fail "message: $(cat "$work/last.err")"
[ ! -e "$work/huge.out" ] || fail "n = 2^29 over a short file created OUT"
printf '536870913 %s\n1\n2\n' $p >"$work/over.in"
run 4 "$ntt" mul "$work/over.in"
grep -q "over.in:1: token 1: n = 536870913 is out of range" "$work/last.err" ||
    fail "message: $(cat "$work/last.err")"
echo "ok: n = 2^29 with a short file exits 4 (peak $2 KiB resident); n = 2^29 + 1 exits 4"

# ---- a large product: exact at a random point; killed while writing ---------
n=$((1 << log2n))
"$ntt" gen $n $p --seed 11 -o "$work/large.in" || fail "gen $n"
run 0 "$ntt" mul "$work/large.in" -o "$work/large.out"
python3 "$here/eval_check.py" "$work/large.in" "$work/large.out" || fail "large product wrong"
echo "ok: a product of two $n-coefficient inputs is right at a random point"
printf 'old\n' >"$work/killed.out"
"$ntt" mul "$work/large.in" -o "$work/killed.out" 2>/dev/null &
pid=$!
# SIGKILL as soon as its temporary file exists: the product is being written.
i=0
while [ -z "$(find "$work" -name 'killed.out.tmp.*' 2>/dev/null)" ] && kill -0 $pid 2>/dev/null; do
    i=$((i + 1))
    [ $i -lt 6000 ] || break
    sleep 0.01
done
if kill -9 $pid 2>/dev/null; then
    wait $pid
    [ "$(cat "$work/killed.out")" = old ] || fail "a killed run changed OUT"
    echo "ok: killed while writing (temporary file $(find "$work" -name 'killed.out.tmp.*' | wc -l) left, OUT unchanged)"
else
    wait $pid
    echo "skipped: the run ended before it could be killed while writing"
fi
exit 0

#!/usr/bin/env bash
# fuzz_campaign.sh DIR SECONDS JOBS
# A long libFuzzer campaign over prebuilt harnesses (scripts/fuzz_bundle.sh
# makes DIR: the fuzz_* binaries, the OpenMP runtime beside them and the
# seed corpora in DIR/seeds/<name>), so the machine that runs it needs no
# compiler.  Each harness runs with -jobs=JOBS -workers=JOBS, every job for
# SECONDS; corpora grow in DIR/corpus/<name> (kept between campaigns),
# crash inputs land in DIR/artifacts/, logs in DIR/logs/<name>/.  Prints a
# table: harness, CPU seconds, executions, corpus size (files), crashes.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: fuzz_campaign.sh DIR SECONDS JOBS" >&2; exit 2; }
dir=$(cd "$1" && pwd) secs=$2 jobs=$3
mkdir -p "$dir/corpus" "$dir/artifacts" "$dir/logs"
table="$dir/campaign-$(date +%Y%m%d-%H%M%S).txt"
printf '%-18s %12s %14s %8s %8s\n' harness cpu_s executions corpus crashes | tee "$table"
for bin in "$dir"/fuzz_*; do
  [ -x "$bin" ] || continue
  name=${bin##*/fuzz_}
  corpus="$dir/corpus/$name" logs="$dir/logs/$name"
  mkdir -p "$corpus" "$logs"
  rm -f "$logs"/fuzz-*.log
  before=$(ls "$dir/artifacts" | grep -c "^fuzz_$name-" || true)
  # CPU time of the jobs: the children's user + system time, from bash's times.
  cpu=$(cd "$logs" && bash -c '
      "$0" -jobs="$1" -workers="$1" -max_total_time="$2" -print_final_stats=1 \
           -artifact_prefix="$3" -timeout=60 -rss_limit_mb=4096 "$4" "$5" >/dev/null 2>&1 || true
      times' "$bin" "$jobs" "$secs" "$dir/artifacts/fuzz_$name-" "$corpus" "$dir/seeds/$name" |
      tail -n 1 | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } printf "%.0f", s }')
  execs=$(cat "$logs"/fuzz-*.log 2>/dev/null | awk '/^stat::number_of_executed_units/ { s += $NF } END { print s + 0 }')
  files=$(ls "$corpus" | wc -l)
  after=$(ls "$dir/artifacts" | grep -c "^fuzz_$name-" || true)
  printf '%-18s %12s %14s %8s %8s\n' "fuzz_$name" "$cpu" "$execs" "$files" $((after - before)) | tee -a "$table"
done
echo "table: $table"

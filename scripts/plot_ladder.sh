#!/usr/bin/env bash
# plot_ladder.sh LADDER.json [OUTDIR]: the plots of an `ntt-bench ladder`
# run, made from its JSON (python3's json module extracts the medians,
# gnuplot draws; Debian packages python3 and gnuplot-nox):
#   OUTDIR/<name>-time-vs-n.png     product time against length, every
#                                   backend, FLINT and NTL (log-log)
#   OUTDIR/<name>-threads.png       speed-up against threads, products and
#                                   forward transforms, one line per length
set -euo pipefail
json=${1:?usage: plot_ladder.sh LADDER.json [OUTDIR]}
out=${2:-$(dirname "$json")}
name=$(basename "$json" .json)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$json" "$tmp" <<'EOF'
import json, sys, collections
doc = json.load(open(sys.argv[1]))
tmp = sys.argv[2]
machine = doc["machine"]
# Time against length: one data block per implementation, in first-seen order.
series = collections.OrderedDict()
for t in doc["tables"]:
    if t["section"] != "sweep":
        continue
    for r in t["rows"]:
        if r.get("verified"):
            series.setdefault(r["name"], []).append((t["n"], r["median_s"]))
with open(f"{tmp}/sweep.dat", "w") as f:
    for name, pts in series.items():
        f.write(f'"{name}"\n')
        for n, s in pts:
            f.write(f"{n} {s * 1e3:.6g}\n")
        f.write("\n\n")
# Speed-up against threads, per operation and length.
for op in ("polymul", "forward"):
    with open(f"{tmp}/{op}.dat", "w") as f:
        for t in doc["tables"]:
            if t["section"] != "scaling" or t["op"] != op:
                continue
            rows = [r for r in t["rows"] if r.get("verified")]
            one = [r for r in rows if r["threads"] == 1]
            if not one:
                continue
            n = t["n"]
            f.write(f'"n = 2^{n.bit_length() - 1}"\n')
            for r in rows:
                f.write(f'{r["threads"]} {one[0]["median_s"] / r["median_s"]:.4f}\n')
            f.write("\n\n")
maxt = max(doc["threads"])
has_sweep = any(t["section"] == "sweep" for t in doc["tables"])
has_scaling = any(t["section"] == "scaling" for t in doc["tables"])
with open(f"{tmp}/meta.gp", "w") as f:
    f.write(f"has_sweep = {int(has_sweep)}\nhas_scaling = {int(has_scaling)}\n")
    cpu = machine["cpu_model"].replace('"', "'")
    f.write(f'cpu = "{cpu}, {machine["logical_cpus"]} logical CPUs, {machine["date"]}"\n')
    f.write(f"maxt = {maxt}\n")
EOF

gnuplot <<EOF
load "$tmp/meta.gp"
set terminal pngcairo size 1100,700 font "sans,11" background "white"
set grid
set key top left
set logscale xy 2
set format x "2^{%L}"
set logscale y 10
set format y "%g"
if (has_sweep) {
set output "$out/$name-time-vs-n.png"
set title "product of two length-n polynomials mod 469762049, median time\n" . cpu . ""
set xlabel "n (each input)"
set ylabel "ms"
plot for [i=0:*] "$tmp/sweep.dat" index i using 1:2 with linespoints title columnheader(1) noenhanced
}

unset logscale
set logscale x 2
set format x "%g"
set xrange [1:maxt]
set yrange [0:maxt]
set key top left
if (has_scaling) {
set output "$out/$name-threads.png"
set multiplot layout 1,2 title "speed-up over 1 thread (OpenMP backend, p = 469762049)\n" . cpu . ""
set title "product of two length-n polynomials"
set xlabel "threads"
set ylabel "speed-up"
plot x with lines dt 2 lc "gray" title "ideal", \
     for [i=0:*] "$tmp/polymul.dat" index i using 1:2 with linespoints title columnheader(1) noenhanced
set title "forward transform of length n"
plot x with lines dt 2 lc "gray" title "ideal", \
     for [i=0:*] "$tmp/forward.dat" index i using 1:2 with linespoints title columnheader(1) noenhanced
unset multiplot
}
EOF
echo "plots of $json written to $out"

#!/usr/bin/env python3
"""plot_rns.py JSON SVG: the stage breakdown of `ntt-bench rns --gpu --json`
as stacked bars, one pair (warm, cold) per stage and level: the stage's NTT
time (its transforms alone, the run's `ntt-only` row) and the rest, with the
stage's bytes-moved floor as a tick.  Python's standard library only."""

import json
import sys

STAGES = ["ntt_batch", "modup_all", "inner", "moddown_x2", "keyswitch", "rescale_x2"]
NAMES = {"ntt_batch": "batched NTT", "modup_all": "modUp", "inner": "inner product",
         "moddown_x2": "modDown x2", "keyswitch": "key switch", "rescale_x2": "rescale x2"}


def row(rows, stage, level, temp, launch, fusion):
    for r in rows:
        if (r["stage"], r["level"], r["temp"], r["launch"], r["fusion"]) == \
           (stage, level, temp, launch, fusion):
            return r
    return None


def bars(d):
    """(label, ntt_us, rest_us, floor_us) per bar, warm then cold."""
    out = []
    for level in sorted({r["level"] for r in d["rows"]}, reverse=True):
        for stage in STAGES:
            only = row(d["rows"], stage, level, "cold", "graph", "ntt-only")
            for temp, launch in (("warm", "stream"), ("cold", "graph")):
                r = row(d["rows"], stage, level, temp, launch, "fused")
                if r is None:
                    continue
                total = r["median_us"]
                # The batched NTT is all transform; the others split at their
                # transforms-alone time.
                ntt = total if stage == "ntt_batch" else min(only["median_us"], total) if only else 0
                label = "%s L+1=%d %s" % (NAMES[stage], level + 1, temp)
                out.append((label, ntt, total - ntt, r["floor_us"]))
    return out


def svg(d, bs):
    W, left, top, bh, gap = 900, 250, 40, 14, 4
    H = top + len(bs) * (bh + gap) + 50
    top_us = max(n + r for _, n, r, _ in bs) * 1.05
    x = lambda us: left + (W - left - 20) * us / top_us
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="11">' % (W, H),
         '<text x="%d" y="20" font-size="13">%s, N = %d, dnum = %d, K = %d: NTT (blue) and '
         'the rest (orange); tick: bytes-moved floor</text>' % (
             left - 200, d.get("device", "GPU"), d["n"], d["dnum"], d["p_count"])]
    for i, (label, ntt, rest, floor) in enumerate(bs):
        y = top + i * (bh + gap)
        s.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 6, y + 11, label))
        s.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="#4477aa"/>' %
                 (x(0), y, x(ntt) - x(0), bh))
        s.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="#ee8833"/>' %
                 (x(ntt), y, x(ntt + rest) - x(ntt), bh))
        s.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" stroke-width="2"/>' %
                 (x(floor), y - 1, x(floor), y + bh + 1))
        s.append('<text x="%.1f" y="%d">%.0f us</text>' % (x(ntt + rest) + 4, y + 11, ntt + rest))
    y = top + len(bs) * (bh + gap) + 20
    for us in range(0, int(top_us) + 1, 200):
        s.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="gray"/>' % (x(us), top - 4, x(us), y - 10))
        s.append('<text x="%.1f" y="%d" text-anchor="middle">%d us</text>' % (x(us), y + 4, us))
    s.append("</svg>")
    return "\n".join(s) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_rns.py JSON SVG")
    with open(sys.argv[1]) as f:
        d = json.load(f)
    bs = bars(d)
    if not bs:
        sys.exit("no GPU stage rows in " + sys.argv[1])
    with open(sys.argv[2], "w") as f:
        f.write(svg(d, bs))


if __name__ == "__main__":
    main()

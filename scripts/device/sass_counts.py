#!/usr/bin/env python3
"""Instruction counts of the chain-16 kernels from a `cuobjdump -sass` listing.

usage: sass_counts.py SASS.txt [RESULT.json]

Prints, per kernel k_chain_*, the number of SASS instructions (NOPs and the
trailing padding excluded) and how many are multiplications (IMAD*, IMUL*)
or calls (CALL: the software 64-bit division of `%`).  With RESULT.json
(from `ntt-bench gpu-modmul --json`), writes the counts into it as
"sass" next to the timings.
"""
import json
import re
import sys


def demangle_kind(name):
    for key, kind in (("k_chain_dyn", "dynamic %"), ("k_chain_const", "constant-modulus %"),
                      ("k_chain_barrett", "Barrett"), ("k_chain_mont", "Montgomery"),
                      ("k_chain_shoup", "Shoup")):
        if key in name:
            return kind
    return None


def main():
    text = open(sys.argv[1]).read()
    funcs = re.split(r"\n\s*Function : ", text)
    rows = []
    for f in funcs[1:]:
        name = f.split("\n", 1)[0].strip()
        kind = demangle_kind(name)
        if not kind:
            continue
        width = "64" if ("Im" in name or "Ly" in name) and "Ij" not in name else "32"
        q = re.search(r"Lj(\d+)E|Ly(\d+)E", name)
        ins = re.findall(r"/\*[0-9a-f]{4}\*/\s+([A-Z][A-Z0-9_.]*)", f)
        ins = [i for i in ins if not i.startswith("NOP")]
        # The listing pads each function with BRA to itself at the end.
        while ins and ins[-1].startswith("BRA"):
            ins.pop()
        mul = sum(1 for i in ins if i.startswith(("IMAD", "IMUL")))
        calls = sum(1 for i in ins if i.startswith("CALL"))
        rows.append({"kernel": name, "kind": kind, "word_bits": int(width),
                     "modulus": int(q.group(1) or q.group(2)) if q else None,
                     "instructions": len(ins), "multiplications": mul, "calls": calls})
    print("SASS instructions per kernel (16 multiplications each; CALL = software division)")
    for r in sorted(rows, key=lambda r: (r["word_bits"], r["kind"])):
        print("  %-20s %2d-bit words %s  %4d instructions, %3d multiply, %d calls" %
              (r["kind"], r["word_bits"], ("q=%d" % r["modulus"]) if r["modulus"] else "        ",
               r["instructions"], r["multiplications"], r["calls"]))
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as fh:
            res = json.load(fh)
        res["sass"] = rows
        with open(sys.argv[2], "w") as fh:
            json.dump(res, fh, indent=1)


if __name__ == "__main__":
    main()

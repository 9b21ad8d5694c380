#!/usr/bin/env python3
"""sass_stalls.py CSV — an `ncu --page source --print-source sass --csv` export: the stall samples by
opcode and the 25 SASS instructions with the most samples (with their neighbours' opcodes), so the
phase that stalls can be told apart (shared CAS, global CAS, the group-id counter's ATOMG, barriers)."""
import collections
import csv
import sys

rows = list(csv.reader(open(sys.argv[1], errors="replace")))
head_i = next(i for i, r in enumerate(rows) if any("Source" == c.strip() for c in r))
head = rows[head_i]
print("columns:", [h for h in head][:30])
src = head.index("Source")
samp = next((i for i, h in enumerate(head) if h.strip() in ("Warp Stall Sampling (All Samples)", "Warp Stall Sampling (All Cycles)")), None)
if samp is None:
    samp = next(i for i, h in enumerate(head) if "Sampling" in h)
body = [r for r in rows[head_i + 1:] if len(r) > max(src, samp)]


def num(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0


total = sum(num(r[samp]) for r in body) or 1.0
by_op = collections.Counter()
for r in body:
    by_op[r[src].split()[0] if r[src].split() else "?"] += num(r[samp])
print(f"{len(body)} instructions, {total:.0f} samples ({head[samp]})")
for op, n in by_op.most_common(18):
    print(f"  {100 * n / total:5.1f} %  {op}")
top = sorted(range(len(body)), key=lambda i: -num(body[i][samp]))[:25]
for i in sorted(top):
    r = body[i]
    print(f"{i:6d} {100 * num(r[samp]) / total:5.1f} %  {r[src][:70]}   <- {body[i - 1][src][:40] if i else ''}")

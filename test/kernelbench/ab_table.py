#!/usr/bin/env python3
"""test/kernelbench/ab_table.py BASE.csv NEW.csv — the time ratio base/new of every
(payloads, dist, g) point and method the two kernel benchmark CSVs share, as a markdown
table (above 1: NEW is faster).  test/lib/gpu-box-steps.sh step_kb_ab uses it for the
--keyed-slots off/on A/B."""
import csv
import sys


def load(path):
    times = {}
    for r in csv.DictReader(open(path)):
        times[(r['payloads'], r['dist'], int(r['log2_g']), r['method'])] = float(r['seconds'])
    return times


def main():
    base, new = load(sys.argv[1]), load(sys.argv[2])
    methods = sorted({k[3] for k in new} & {k[3] for k in base})
    print(f"time of {sys.argv[1]} / time of {sys.argv[2]}:")
    print("| payloads | dist | g | " + " | ".join(methods) + " |")
    print("|---|---|---|" + "---:|" * len(methods))
    for point in sorted({k[:3] for k in new}):
        cells = []
        for m in methods:
            a, b = base.get(point + (m,)), new.get(point + (m,))
            cells.append(f"{a / b:.2f}" if a and b else "-")
        print(f"| {point[0]} | {point[1]} | 2^{point[2]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

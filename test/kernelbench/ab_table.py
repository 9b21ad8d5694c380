#!/usr/bin/env python3
"""test/kernelbench/ab_table.py BASE.csv NEW.csv [BASE.csv NEW.csv ...] — the time ratio
base/new of every (key bytes, payloads, dist, g) point and method the kernel benchmark CSVs share, as
a markdown table (above 1: NEW is faster).  With several pairs (the same A/B on several
machines or runs), each cell is the median ratio followed by every pair's ratio.  The thrust
column gauges noise: both sides run the same Thrust code.  test/lib/gpu-box-steps.sh
step_kb_ab uses it for the --keyed-slots off/on A/B."""
import csv
import statistics
import sys


def load(path):
    times = {}
    for r in csv.DictReader(open(path)):
        times[(r['key_bytes'], r['payloads'], r['dist'], int(r['log2_g']), r['method'])] = float(r['seconds'])
    return times


def main():
    args = sys.argv[1:]
    if len(args) < 2 or len(args) % 2:
        sys.exit(__doc__)
    pairs = [(load(args[i]), load(args[i + 1])) for i in range(0, len(args), 2)]
    methods = sorted(set.intersection(*({k[4] for k in b} & {k[4] for k in n} for b, n in pairs)))
    points = sorted(set.intersection(*({k[:4] for k in n} for _, n in pairs)))
    print(f"time of {args[0]} / time of {args[1]}" + (f" (and {len(pairs) - 1} more pairs)" if len(pairs) > 1 else "") + ":")
    print("| key bytes | payloads | dist | g | " + " | ".join(methods) + " |")
    print("|---|---|---|---|" + "---:|" * len(methods))
    for point in points:
        cells = []
        for m in methods:
            ratios = [b[point + (m,)] / n[point + (m,)] for b, n in pairs
                      if b.get(point + (m,)) and n.get(point + (m,))]
            if not ratios:
                cells.append("-")
            elif len(ratios) == 1:
                cells.append(f"{ratios[0]:.2f}")
            else:
                cells.append(f"{statistics.median(ratios):.2f} ({' '.join(f'{r:.2f}' for r in ratios)})")
        print(f"| {point[0]} | {point[1]} | {point[2]} | 2^{point[3]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

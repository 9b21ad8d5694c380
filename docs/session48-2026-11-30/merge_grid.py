#!/usr/bin/env python3
"""merge_grid.py OLD_GRID.csv NEW_PART.csv OUT.csv — OLD_GRID's rows with every (point, method) NEW_PART ran
replaced by NEW_PART's row (the same rule as docs/session41-2026-11-30/merge_targets.py, which counts the
targets over the merge): the grid the issue's plot is drawn from."""
import csv, sys

def key(r):
    return (r['key_bytes'], r['payloads'], r['dist'], r['log2_g'], r['method'])

old_rows = list(csv.DictReader(open(sys.argv[1])))
new_rows = list(csv.DictReader(open(sys.argv[2])))
fields = list(csv.DictReader(open(sys.argv[1])).fieldnames)
replaced = {key(r): r for r in new_rows}
out = [replaced.pop(key(r), r) for r in old_rows] + list(replaced.values())
with open(sys.argv[3], 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=fields, extrasaction='ignore')
    w.writeheader()
    w.writerows(out)
print(f"{len(out)} rows ({len(new_rows)} from {sys.argv[2]})")

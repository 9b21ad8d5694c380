#!/usr/bin/env python3
"""merge_targets.py OLD_GRID.csv NEW_PART.csv — issue 3's item-5 targets over OLD_GRID with the points
NEW_PART has replacing OLD_GRID's (all methods of a point from one run), and every 3x miss listed.
Targets: auto within 20 % of the best; best and auto >= 3x Thrust; best within 3x of the floor at
g <= 2^16.  Best is the fastest forced strategy of the point."""
import csv, collections, sys

def load(path):
    pts = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        pts[(int(r['key_bytes']), int(r['payloads']), r['dist'], int(r['log2_g']))][r['method']] = r
    return pts

old, new = load(sys.argv[1]), load(sys.argv[2])
for k in new:
    # The methods NEW_PART did not run (never the best there) stay OLD_GRID's.
    old[k] = {m: v for m, v in old[k].items() if m not in new[k]} | new[k]
met = collections.Counter(); n = collections.Counter(); misses = []
for k, m in sorted(old.items()):
    t = {name: float(r['seconds']) for name, r in m.items()}
    forced = {name: v for name, v in t.items() if name not in ('thrust', 'auto')}
    best_name, best = min(forced.items(), key=lambda kv: kv[1])
    n['auto20'] += 1; met['auto20'] += t['auto'] <= 1.2 * best
    n['best3x'] += 1; met['best3x'] += t['thrust'] >= 3 * best
    n['auto3x'] += 1; met['auto3x'] += t['thrust'] >= 3 * t['auto']
    if k[3] <= 16:
        floor = float(m['thrust']['floor_seconds'])
        n['floor'] += 1; met['floor'] += best <= 3 * floor
    if t['thrust'] < 3 * best:
        misses.append(f"{k}: {best_name} {best*1e3:.2f} ms, Thrust {t['thrust']*1e3:.1f}, {t['thrust']/best:.2f}x")
    if t['auto'] > 1.2 * best:
        print(f"auto miss {k}: auto {t['auto']*1e3:.2f} ms ({m['auto']['strategy_used']}), best {best_name} {best*1e3:.2f}")
for key, label in (('auto20', 'auto within 20 % of the best'), ('best3x', 'best >= 3x Thrust'),
                   ('auto3x', 'auto >= 3x Thrust'), ('floor', 'best within 3x of the floor, g <= 2^16')):
    print(f"| {label} | {met[key]}/{n[key]} |")
print("3x misses:"); print("\n".join(misses))

#!/usr/bin/env bash
# Session 38, call 2 (about 5 minutes): the run-time correction's cost on 2^28 resident rows where the
# planner's group estimate is far off (issue 3, item 3: "wrong by a factor of 100,000"), with
# kernelbench --estimate-scale (session 37): every method is given the true groups times 1e-5 or
# 1e5 (at least one group), against the exact estimate in the same run. Auto should stay near
# its exact-estimate time; forced strategies show what the grow+retry path and an oversized
# table cost. Also shows whether 3439716 (the probe loop in a full table) made the too-low case cheap.
#   (binaries and carry as for s38-call1.sh)
#   run(command="bash docs/session37-2026-11-29/next/s38-call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s38-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
for scale in 1 1e-5 1e5; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 75 test/bin/kernelbench --bw-gib 1 --max-seconds 65 --keys 4 --payloads 1 \
    --dists uniform,zipf1.0 --log2-groups 10,16,22 --estimate-scale $scale \
    --csv "$O/est-$scale.csv" --md "$O/est-$scale.md" > "$O/est-$scale.log" 2>&1
  echo "estimate x$scale rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/est-$scale.md")"
done
python3 - "$O" <<'PY'
import csv, sys, collections
O = sys.argv[1]
t = {}
for scale in ('1', '1e-5', '1e5'):
    for r in csv.DictReader(open(f"{O}/est-{scale}.csv")):
        t[(scale, r['dist'], r['log2_g'], r['method'])] = (float(r['seconds']) * 1e3, r['strategy_used'], r.get('switches', ''))
for dist in ('uniform', 'zipf1.0'):
    for g in ('10', '16', '22'):
        for m in ('auto', 'global_hash', 'shared_hash', 'sort', 'partition'):
            row = [t.get((s, dist, g, m)) for s in ('1', '1e-5', '1e5')]
            if row[0] is None:
                continue
            cells = "  ".join(f"x{s}: {v[0]:8.1f} ms ({v[1]})" if v else f"x{s}: -" for s, v in zip(('1', '1e-5', '1e5'), row))
            print(f"  {dist} 2^{g} {m:12s} {cells}")
PY
# The scatter with two and three payloads (16-byte rows with 4-byte keys, 24 with 8-byte ones), which
# its rule covers but session 37 did not measure (its A/B had one and four).
for s in on off; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 --keys 4,8 --payloads 2,3 \
    --dists uniform,zipf1.0 --log2-groups 18:22:2 --methods partition,auto --partition-scatter $s \
    --csv "$O/scatter23-$s.csv" --md "$O/scatter23-$s.md" > "$O/scatter23-$s.log" 2>&1
  echo "scatter $s, two and three payloads rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/scatter23-$s.md")"
done
python3 test/kernelbench/ab_table.py "$O/scatter23-off.csv" "$O/scatter23-on.csv" | grep -E "^\|"
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 40, call 2 (about 9 minutes): the full grid at HEAD, against session 37's (call 5, 17e35c3); session 39 ran 2^18-2^26 only (call 6).
# Since session 37's grid: sessions 38-39 changed every strategy's compiled code (gpugb_probe's step
# bound, the lean rows' overflow flag, the group counter's exhausted flag), auto's probe (PARTITION's
# own), its partition bits (PARTITION_FILL_SLACK), its check (Chao1, gpugb_table_reserve and its
# slack) and PARTITION's default (the lookup bound). ab_table.py's ratio per method and point shows
# what moved; thrust's column gauges the noise. Commit grid.csv, grid.md and grid.png.
#   (binaries as for s40-call1.sh)
#   run(command="bash docs/session39-2026-11-29/next/s40-call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
#   Then here: python3 test/kernelbench/plot.py grid.csv grid.png
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s40-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 540 test/bin/kernelbench --reps 1 --max-seconds 520 \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/grid.md")"
sed -n '/^## Targets/,$p' "$O/grid.md" | grep -E "^\|" | head -8
python3 test/kernelbench/ab_table.py docs/session37-2026-11-29/call5/grid.csv "$O/grid.csv" > "$O/grid-vs-s37.md"
python3 - "$O/grid-vs-s37.md" <<'PY'
import re, sys, statistics
rows = [l for l in open(sys.argv[1]) if l.startswith('|') and re.search(r'\d\.\d\d', l)]
head = [l for l in open(sys.argv[1]) if l.startswith('| key')][0].strip('|\n').split('|')
cols = [c.strip() for c in head]
for j, c in enumerate(cols[4:], 4):
    v = []
    for l in rows:
        cells = [x.strip() for x in l.strip('|\n').split('|')]
        try:
            v.append(float(cells[j].split()[0]))
        except (ValueError, IndexError):
            pass
    if v:
        print(f"  {c:14s} s37/now median {statistics.median(v):.3f}, min {min(v):.2f}, max {max(v):.2f} ({len(v)} points)")
PY
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"

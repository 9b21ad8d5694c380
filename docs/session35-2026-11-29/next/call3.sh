#!/usr/bin/env bash
# Session 35, call 3: the full kernel grid (issue 3, item 5) with the device probe of 2^20 rows
# (cuda/groupby.cu, GPUGB_DEVICE_PROBE_ROWS), about 8 minutes; then the plot here:
#   python3 test/kernelbench/plot.py grid.csv grid.png
#   run(command="bash docs/session35-2026-11-29/next/call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s35-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 540 test/bin/kernelbench --reps 1 --max-seconds 500 \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
sed -n '/^## Targets/,$p' "$O/grid.md" | grep -E "^\|" | head -8
grep -E "partition launches" "$O/grid.log" | grep -E "auto" | head -30 | cut -c1-250
gzip -9 "$O/grid.log"
echo "total $(( $(date +%s) - T0 )) s"

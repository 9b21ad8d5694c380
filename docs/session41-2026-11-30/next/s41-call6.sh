#!/usr/bin/env bash
# Session 41, call 6 (about 4 minutes): the grid's upper half with the code merged to main (the
# scatter of rows wider than 8 bytes in two blocks an SM): 2^16-2^26 groups, every key width,
# payload count and distribution, the strategies that are ever the best there and auto, against
# Thrust.  The lower half (2^0-2^14) runs no scatter and no PARTITION pick: session 40's grid stands.
#   run(command="bash docs/session41-2026-11-30/next/s41-call6.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=400)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s41-call6}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
CUDA_MODULE_LOADING=EAGER timeout 380 test/bin/kernelbench --reps 1 --max-seconds 360 --log2-groups 16:26:2 \
  --methods auto,global_hash,partition,sort --csv "$O/grid-hi.csv" --md "$O/grid-hi.md" > "$O/grid-hi.log" 2>&1
echo "kernelbench grid-hi rc=$? ($(( $(date +%s) - T0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/grid-hi.md")"
python3 test/kernelbench/ab_table.py docs/session40-2026-11-30/call2/grid.csv "$O/grid-hi.csv" | grep -E "^\|" | head -120
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"

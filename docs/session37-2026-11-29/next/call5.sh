#!/usr/bin/env bash
# Session 37, call 5 (about 8 minutes): the scatter's rule after call 4 (from 2^9 partitions, and at
# most four rows of a tile a partition; 12-byte rows from any), with two self-test cases shaped for it
# (119, 120): the partition-forced self-test, the A/B against CUB's sort, then the full grid.
#   (binaries and carry as for call4.sh)
#   run(command="bash docs/session37-2026-11-29/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
# Then here: python3 test/kernelbench/plot.py grid.csv grid.png
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s37-call5}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 170 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log" | cut -c1-160)"
echo "  $(grep -c '^ok' "$O/selftest-partition.log") ok, $(grep -c '^FAIL' "$O/selftest-partition.log") FAIL; $(grep -E '^cases with scattered' "$O/selftest-partition.log")"
grep -E "^FAIL" "$O/selftest-partition.log" | head -8 | cut -c1-400
grep -E "scattered:" "$O/selftest-partition.log" | cut -c1-300
if grep -q "^FAIL" "$O/selftest-partition.log"; then gzip -9 "$O"/*.log; exit 1; fi
for s in on off; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 100 test/bin/kernelbench --bw-gib 1 --max-seconds 90 --keys 4,8 --payloads 1,4 \
    --dists uniform,zipf1.0 --log2-groups 16:24:2 --methods partition,auto --partition-scatter $s \
    --csv "$O/scatter-$s.csv" --md "$O/scatter-$s.md" > "$O/scatter-$s.log" 2>&1
  echo "scatter $s rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/scatter-$s.md")"
done
python3 test/kernelbench/ab_table.py "$O/scatter-off.csv" "$O/scatter-on.csv" | grep -E "^\|"
grep -oE "[0-9]+ scattered\)" "$O/scatter-on.log" | sort | uniq -c | head
left=$(( 540 - ($(date +%s) - T0) ))
echo "grid limit ${left} s"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout $left test/bin/kernelbench --reps 1 --max-seconds $(( left - 15 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/grid.md")"
sed -n '/^## Targets/,$p' "$O/grid.md" | grep -E "^\|" | head -8
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"

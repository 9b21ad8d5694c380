#!/usr/bin/env bash
# Session 33, call 3, from the repository root on the GPU box, with binaries built on the
# development machine and carried packed, as call2.sh says:
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/kernelbench-base test/bin/device_selftest
#   run(command="bash docs/session33-2026-11-29/scripts/call3.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
# Call 2 found the coalesced group-id claim slower in global_hash (0.94-0.96x at uniform groups),
# so only the lean kernels' slow path keeps it (gpugb_take_group_id<true>):
#  - the self-test with PARTITION and SHARED_HASH forced (the lean slow path's claims);
#  - A/B in one run against the base commit 05823a3: one payload, 4- and 8-byte keys, uniform and
#    Zipf 1.0, 2^12-2^24 groups;
#  - Nsight Compute of the lean partition kernel at 2^22 (the claim's atomic, the stalls);
#  - the full kernel grid.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s33-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
for s in partition shared_hash; do
  t0=$(date +%s)
  timeout 90 test/bin/device_selftest --require-gpu --quick --strategy $s > "$O/selftest-$s.log" 2>&1
  echo "selftest --strategy $s rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$s.log")"
  grep -E "^FAIL" "$O/selftest-$s.log" | head -5
done
for v in base new; do
  b=test/bin/kernelbench; [ $v = base ] && b=test/bin/kernelbench-base
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 100 $b --bw-gib 1 --max-seconds 90 --keys 4,8 --payloads 1 \
    --dists uniform,zipf1.0 --log2-groups 12:24:2 --methods partition,shared_hash,global_hash,auto \
    --csv "$O/ab-$v.csv" --md "$O/ab-$v.md" > "$O/ab-$v.log" 2>&1
  echo "A/B $v rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/ab-$v.md")"
done
echo "base / new:"
python3 test/kernelbench/ab_table.py "$O/ab-base.csv" "$O/ab-new.csv" | tee "$O/ab.md" | grep -E "^\|"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 60 ncu --clock-control none --launch-count 1 -k "regex:gpugb_partition_lean_kernel" \
  --section SourceCounters --section WarpStateStats --section SpeedOfLight -f -o "$O/lean-2e22" \
  test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 22 \
  --methods partition --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-22.log" 2>&1
echo "ncu 2^22 rc=$? ($(( $(date +%s) - t0 )) s)"
ncu -i "$O/lean-2e22.ncu-rep" --page source --csv --print-source sass > "$O/lean-2e22-sass.csv" 2>> "$O/ncu-page.err"
ncu -i "$O/lean-2e22.ncu-rep" --page details > "$O/lean-2e22-details.txt" 2>> "$O/ncu-page.err"
grep -E "^ +(Duration|Warp Cycles Per Issued Instruction|Avg. Active Threads Per Warp) " "$O/lean-2e22-details.txt"
gzip -f "$O/lean-2e22-sass.csv"; rm -f "$O"/*.ncu-rep
left=$(( 585 - ($(date +%s) - T0) ))
if [ $left -gt 260 ]; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout $(( left - 5 )) test/bin/kernelbench --reps 1 --max-seconds $(( left - 20 )) \
    --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
  echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
  sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
  grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
else
  echo "full grid skipped: $left s left"
fi
gzip -9 "$O"/*.log
cd "$O" && tar czf call3.tgz ./*.gz ./*.csv ./*.md ./*.txt ./*.err 2>/dev/null && rm -f ./*.gz ./*.csv ./*.md ./*.txt ./*.err
echo "total $(( $(date +%s) - T0 )) s"

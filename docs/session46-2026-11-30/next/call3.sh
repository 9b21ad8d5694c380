#!/usr/bin/env bash
# Session 46, call 3:
# 1. the self-test's private_hash cases at HEAD's device code (call 2's whole run stopped at its 230 s
#    there, after 664 cases, 0 failed);
# 2. where forced PARTITION's time goes now, with the compact flush (test/bin/s46c): every gpugb and CUB
#    kernel in launch order at 2^26 groups (4-byte keys, one payload, uniform), and Nsight Compute's
#    sections of the lean kernel at 2^24 and 2^26.
#   run(command="bash docs/session46-2026-11-30/next/call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s46.tar.xz", ".gpu-box/bins-s46c.tar.xz"], timeout_s=400)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s46-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s46.tar.xz && tar xJf .gpu-box/bins-s46c.tar.xz || exit 1
t0=$(date +%s)
timeout 120 test/bin/s46/device_selftest --require-gpu --quick --strategy private_hash > "$O/selftest-private.log" 2>&1
echo "selftest private_hash rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-private.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-private.log" | head -8 | cut -c1-300
KB="test/bin/s46c/kernelbench --keys 4 --payloads 1 --dists uniform --methods partition --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 100 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb|Radix|Onesweep|Histogram|Scan|Partition" \
  $KB --log2-groups 26 > "$O/ncu-order-26.csv" 2> "$O/ncu-order-26.err"
echo "ncu in order rc=$? ($(( $(date +%s) - t0 )) s)"
python3 test/kernelbench/ncu_phases.py --in-order "$O/ncu-order-26.csv" | tail -40
for g in 24 26; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 80 ncu -k "regex:gpugb_partition_lean_kernel" -c 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" $KB --log2-groups $g > "$O/ncu-lean-$g.txt" 2> "$O/ncu-lean-$g.err"
  echo "ncu lean $g rc=$? ($(( $(date +%s) - t0 )) s)"
  grep -E "stalled_(long|lg|membar|barrier|short|wait|mio|drain|lg_throttle|math|no_inst|branch|dispatch|imc|sleep|tex|selected|not_selected)[a-z_]*_per_issue_active.ratio +[a-z]* +([1-9]|0\.[1-9])|Duration|Avg. Active Threads Per Warp|Achieved Occupancy|Compute \(SM\) Throughput|DRAM Throughput|L2 Cache Throughput|L1/TEX Hit|L2 Hit|No Eligible|Warp Cycles Per Issued" "$O/ncu-lean-$g.txt" | cut -c1-150 | head -40
done
gzip -9 "$O"/*.log "$O"/*.txt "$O"/*.err "$O"/*.csv 2>/dev/null
echo "total $(( $(date +%s) - T0 )) s"

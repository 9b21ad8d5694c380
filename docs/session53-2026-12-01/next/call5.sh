#!/usr/bin/env bash
# Session 53, call 5 (the session's last device seconds): where SHARED_HASH spends its time at 2^14 groups,
# 4-byte keys, one payload, uniform (4.15 ms against the floor's 0.96: the floor target's nearest misses are
# SHARED_HASH at 2^12-2^14), for session 54: its kernels in order, the main kernel's speed-of-light,
# occupancy, launch and warp-state sections, and its stall samples by SASS instruction. s53a: main's GPU code.
#   run(command="bash docs/session53-2026-12-01/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s53b.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 190 .gpu-box/bins-s53b.tar.xz
P="--methods shared_hash --keys 4 --payloads 1 --dists uniform --log2-groups 14"
ncu_in_order sh14 s53a $P
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 60 ncu -k "regex:gpugb_lean" -c 1 --section SpeedOfLight --section Occupancy \
  --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --csv \
  test/bin/s53a/kernelbench $P --reps 1 --bw-gib 1 --max-seconds 50 --md /dev/null > "$OUT/details-sh14.csv" 2> "$OUT/details-sh14.err"
echo "== ncu details rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E '"(Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per Thread|Block Size|Grid Size|Dynamic Shared Memory Per Block|Eligible Warps Per Scheduler|Issued Warp Per Scheduler|L1/TEX Hit Rate|L2 Hit Rate)"' \
  "$OUT/details-sh14.csv" | awk -F'","' '{print $1 "|" $(NF-2) "|" $(NF-1) "|" $NF}' | sed 's/^"//' | cut -c1-200 | tail -20
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 60 ncu -k "regex:gpugb_lean" -c 1 --section SourceCounters --section WarpStateStats \
  --page source --print-source sass --csv test/bin/s53a/kernelbench $P --reps 1 --bw-gib 1 --max-seconds 50 \
  --md /dev/null > "$OUT/sass-sh14.csv" 2> "$OUT/sass-sh14.err"
echo "== ncu source rc=$? ($(( $(date +%s) - t0 )) s)"
python3 test/kernelbench/sass_stalls.py "$OUT/sass-sh14.csv" 2>&1 | sed -n '2,30p'
gzip -9 "$OUT"/*.csv
call_pack s53-call5

#!/usr/bin/env bash
# Session 43, call 5 (the last 240 s of device time): Nsight Compute sections of PARTITION's lean kernel,
# now with group ids looked up at the flush (cuda/partition_deferred.cuh), at 2^22 groups, 4-byte keys,
# one payload, uniform and Zipf 0.5: the two points 2-3 % short of 3x Thrust (2.94x and 2.98x with
# Zipf 0.5 and 1.0 in call 3's grid), and where uniform keys gained nothing from the deferred lookups
# (call 1: 0.99-1.02x) while Zipf 1.0 gained 1.17x.  Session 42 call 3 has the key cache's kernel there
# (ncu-sections.txt.gz: 5.40 ms, 18.3 of 32 lanes active).
#   run(command="bash docs/session43-2026-11-30/next/s43-call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=200)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s43-call5}; mkdir -p "$O"
T0=$(date +%s)
tar xJf .gpu-box/bins.tar.xz || exit 1
for d in uniform zipf0.5; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 75 ncu -k "regex:gpugb_partition_lean_kernel" -c 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section SchedulerStats \
    test/bin/new/kernelbench --keys 4 --payloads 1 --dists $d --log2-groups 22 --methods partition --reps 1 \
    --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-$d.txt" 2> "$O/ncu-$d.err"
  echo "ncu $d rc=$? ($(( $(date +%s) - t0 )) s)"
  grep -E "^  gpugb|Duration|Registers Per|Avg. Active Threads Per Warp|Avg. Not Predicated Off|Achieved Occupancy|Compute \(SM\) Throughput|DRAM Throughput|L2 Cache Throughput|No Eligible|Warp Cycles Per Issued" "$O/ncu-$d.txt" | cut -c1-140
done
gzip -9 "$O"/*.txt "$O"/*.err 2>/dev/null
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 47, call 5 (about 200 s of device time left): why the one-block table with ids looked up at the flush
# (cuda/lean_deferred_kernel.cuh) ran 1.4-2.3x slower than the fast kernel at 2^11-2^12 groups (call 4), when it
# shares its row loop with PARTITION's lean kernel: Nsight Compute's sections of gpugb_lean_deferred_kernel and of
# gpugb_lean_fast_kernel at 2^12 groups (4-byte keys, one payload, uniform; test/bin/s47d, the kernel benchmark built
# from main: --lean-deferred picks the kernel). Refused in session 47 (too little device time left); for session 48.
#   run(command="bash docs/session47-2026-11-30/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s47d.tar.xz"], timeout_s=140)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s47-call5}; mkdir -p "$O"
T0=$(date +%s)
tar xJf .gpu-box/bins-s47d.tar.xz || exit 1
KB="test/bin/s47d/kernelbench --keys 4 --payloads 1 --dists uniform --methods shared_hash --reps 1 --bw-gib 1 --max-seconds 30 --md /dev/null --log2-groups 12"
for v in on:gpugb_lean_deferred_kernel off:gpugb_lean_fast_kernel; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 50 ncu -k "regex:${v#*:}" -c 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" $KB --lean-deferred ${v%%:*} > "$O/ncu-${v%%:*}.txt" 2> "$O/ncu-${v%%:*}.err"
  echo "== ncu --lean-deferred ${v%%:*} (${v#*:}) rc=$? ($(( $(date +%s) - t0 )) s)"
  grep -E "stalled_[a-z_]*_per_issue_active.ratio +[a-z]* +([1-9]|0\.[2-9])|Duration|Registers Per Thread|Local Memory Spilling|Achieved Occupancy|Avg. Active Threads Per Warp|Executed Ipc A|DRAM Throughput|No Eligible|Warp Cycles Per Issued|Issued Warp Per Scheduler" "$O/ncu-${v%%:*}.txt" | cut -c1-150 | head -30
done
gzip -9 "$O"/*.txt "$O"/*.err 2>/dev/null
cd "$O" && tar czf s47-call5.tgz ./*.gz && rm -f ./*.gz
echo "total $(( $(date +%s) - T0 )) s"

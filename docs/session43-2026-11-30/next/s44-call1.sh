#!/usr/bin/env bash
# Session 44's first call (about 5 minutes; written in session 43, whose device time ran out), two branches:
# s43-flush-prefetch, the deferred flush asking L2 for its keys' home slots before it looks them up, and
# s43-retry-room, a retry round that grows the table only where it lacks ids (self-test case 124):
#   test/bin/new/               main's kernel code at 1b0733a (kernelbench)
#   test/bin/prefetch/          s43-flush-prefetch at 2d3dd92 (kernelbench, device_selftest)
#   test/bin/retry/             s43-retry-room at 8fb68c7 (device_selftest)
#   test/bin/retry-test-only/   the same less its cuda/table.cu change (device_selftest: case 124 must fail)
# 0. case 124 with and without the retry-room fix, then the branch's PARTITION self-test;
# 1. the self-test's PARTITION cases with the prefetch branch;
# 2. forced PARTITION and auto, main against the branch, both key widths and payload counts, uniform and
#    Zipf 1.0, 2^16-2^26, one rep;
# 3. Nsight Compute of the branch's lean kernel at 2^24, uniform (main: 10.40 ms, 18.0 lanes, session 43 call 7).
#   run(command="bash docs/session43-2026-11-30/next/s44-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=420)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s44-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
for v in retry-test-only retry; do
  timeout 60 test/bin/$v/device_selftest --require-gpu --quick --strategy partition --only "empty word" > "$O/case124-$v.log" 2>&1
  echo "case 124 ($v) rc=$?: $(grep -E '^(ok|FAIL)' "$O/case124-$v.log" | head -2 | cut -c1-300)"
done
t0=$(date +%s)
timeout 150 test/bin/retry/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition-retry.log" 2>&1
echo "selftest --strategy partition (retry) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition-retry.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-partition-retry.log" | head -8 | cut -c1-400
t0=$(date +%s)
timeout 150 test/bin/prefetch/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-partition.log"
grep -E "^FAIL" "$O/selftest-partition.log" | head -8 | cut -c1-400
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 80 "$bin" --bw-gib 1 --max-seconds 75 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
for side in new prefetch; do
  kb $side test/bin/$side/kernelbench --reps 1 --keys 4,8 --payloads 1,4 --log2-groups 16:26:2 \
    --dists uniform,zipf1.0 --methods partition,auto
done
echo "== main -> prefetch"; python3 test/kernelbench/ab_table.py "$O/new.csv" "$O/prefetch.csv" | grep -E "^\|"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 60 ncu -k "regex:gpugb_partition_lean_kernel" -c 1 --section SpeedOfLight \
  --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats \
  test/bin/prefetch/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 24 --methods partition --reps 1 \
  --bw-gib 1 --max-seconds 40 --md /dev/null > "$O/ncu-uniform-24.txt" 2> "$O/ncu-uniform-24.err"
echo "ncu rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "Duration|Avg. Active Threads Per Warp|DRAM Throughput|L2 Hit|No Eligible|Warp Cycles Per Issued" "$O/ncu-uniform-24.txt" | cut -c1-140
gzip -9 "$O"/*.log "$O"/*.csv "$O"/*.txt "$O"/*.err 2>/dev/null
cd "$O" && tar czf s44-call1.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

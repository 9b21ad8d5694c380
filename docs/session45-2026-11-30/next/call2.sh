#!/usr/bin/env bash
# Session 45's second call. Binaries (.gpu-box/bins-s45-2.tar.xz):
#   test/bin/s45main/   main at 82be660: auto's probe runs GLOBAL_HASH where PARTITION is planned
#   test/bin/s45count/  branch s45-count-tiles (0e65959): 82be660 with the scatter's count kernel counting
#                       8 tiles a block (GPUGB_SCATTER_COUNT_TILES)
# 1. the whole device self-test (--quick, every case) of s45count, which holds both changes;
# 2. A/B of forced PARTITION and auto, main -> count tiles, 2^18-2^24, both key widths and payload counts,
#    uniform and Zipf 1.0, 3 reps;
# 3. Nsight Compute's sections for the count kernel at 2^22 (1.59 ms in call 1).
#   run(command="bash docs/session45-2026-11-30/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s45-2.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s45-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s45-2.tar.xz || exit 1
t0=$(date +%s)
timeout 300 test/bin/s45count/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest (s45count) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-all.log"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 100 "$bin" --bw-gib 1 --max-seconds 95 --reps 3 --keys 4,8 --payloads 1,4 \
    --log2-groups 18:24:2 --dists uniform,zipf1.0 --methods partition,auto --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
kb ab-main test/bin/s45main/kernelbench
kb ab-count test/bin/s45count/kernelbench
echo "== forced PARTITION and auto: main -> count tiles"
python3 test/kernelbench/ab_table.py "$O/ab-main.csv" "$O/ab-count.csv" | grep -E "^\|"
for b in s45main s45count; do
  CUDA_MODULE_LOADING=EAGER timeout 60 ncu -k "regex:gpugb_scatter_count_kernel" -c 1 --section SpeedOfLight \
    --section Occupancy --section MemoryWorkloadAnalysis \
    test/bin/$b/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 22 --methods partition --reps 1 \
    --bw-gib 1 --max-seconds 40 --md /dev/null > "$O/ncu-count-$b.txt" 2> "$O/ncu-count-$b.err"
  echo "== ncu, the count kernel at 2^22, $b rc=$?"
  grep -E "Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy" "$O/ncu-count-$b.txt" | cut -c1-140
done
gzip -9 "$O"/*.log "$O"/*.txt "$O"/*.err 2>/dev/null
cd "$O" && tar czf s45-call2.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 32, call 3 (about 5 minutes), carrying only the HEAD file:
#   run(command="bash docs/session31-2026-11-29/next/call3.sh", carry=[".gpu-box/HEAD"], timeout_s=600)
# Where PARTITION's time goes now that its rows move with the sort (cuda/partition_move.cu):
#  - the A/B of moved rows against row numbers in the same run (--partition-move on|off; session
#    31 compared call 2 with call 1's grid), one payload, 4- and 8-byte keys, 2^18-2^26 groups;
#  - Nsight Compute of gpugb_partition_agg_kernel over the moved columns at 2^22 groups, one
#    payload (session 31's estimate: about 12 of its 20.7 ms, where the bound's region phase,
#    test/kernelbench/partition_bound.cu, takes 2.3-2.8), per SASS instruction.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s32-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
# Session 32: the tree has the lean partition kernel (cuda/partition_lean_kernel.cuh): prove it first.
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$? at $(( $(date +%s) - T0 )) s"
wait
t0=$(date +%s)
timeout 90 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
echo "cases with lean launches: $(grep -c -E 'moved launches \([1-9]' "$O/selftest.log")"
kb() { CUDA_MODULE_LOADING=EAGER timeout 75 test/bin/kernelbench --bw-gib 1 --max-seconds 65 --keys 4,8 --payloads 1 \
  --dists uniform,zipf1.0 --log2-groups 18:26:2 "$@"; }
for v in off generic lean; do
  case $v in off) a="--partition-move off --methods partition";; generic) a="--partition-lean off --methods partition";;
    lean) a="--methods partition,sort";; esac
  kb $a --csv "$O/move-$v.csv" --md "$O/move-$v.md" > "$O/move-$v.log" 2>&1
  echo "partition $v rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/move-$v.md")"
done
echo "moved rows vs row numbers (generic kernel):"
python3 test/kernelbench/ab_table.py "$O/move-off.csv" "$O/move-generic.csv" | tee "$O/move-ab.md" | grep -E "^\|" | cut -d'|' -f2-8
echo "lean partition kernel vs generic (both moved):"
python3 test/kernelbench/ab_table.py "$O/move-generic.csv" "$O/move-lean.csv" | tee "$O/lean-ab.md" | grep -E "^\|" | cut -d'|' -f2-8
if command -v ncu > /dev/null && [ $(( $(date +%s) - T0 )) -lt 430 ]; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 110 ncu --clock-control none --launch-count 1 -k "regex:gpugb_partition_lean_kernel" \
    --section SourceCounters --section InstructionStats --section WarpStateStats --section Occupancy \
    --section MemoryWorkloadAnalysis --section SpeedOfLight -f -o "$O/part-2e22" \
    test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 22 \
    --methods partition --bw-gib 1 --max-seconds 120 --md /dev/null > "$O/ncu.log" 2>&1
  echo "ncu rc=$? ($(( $(date +%s) - t0 )) s)"
  ncu -i "$O/part-2e22.ncu-rep" --page source --csv --print-source sass > "$O/part-2e22-sass.csv" 2> "$O/ncu-page.err"
  echo "  per-instruction page rc=$? ($(wc -l < "$O/part-2e22-sass.csv") lines)"
  ncu -i "$O/part-2e22.ncu-rep" --page details > "$O/part-2e22-details.txt" 2>> "$O/ncu-page.err"
  grep -E "^ +(Executed Instructions|Achieved Occupancy|Memory Throughput|Duration|Registers Per Thread|Compute \(SM\) Throughput) " "$O/part-2e22-details.txt"
  gzip -f "$O/part-2e22-sass.csv"
fi
rm -f "$O"/*.ncu-rep
cd "$O" && tar czf call3.tgz ./*.log ./*.csv ./*.md ./*.txt ./*.gz ./*.err 2>/dev/null && rm -f ./*.log ./*.csv ./*.md ./*.txt ./*.gz ./*.err
echo "total $(( $(date +%s) - T0 )) s"

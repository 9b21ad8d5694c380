#!/usr/bin/env bash
# Session 30, call 2 (about 5 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session30-2026-11-29/scripts/call2.sh", carry=[".gpu-box"], timeout_s=600)
# Call 1 (docs/session29-2026-11-29/next/call1.sh) found gpugb_lean_fast_kernel (the experiment
# spec.lean_fast_key) failing every launch with an illegal address: its table reset stored the
# key cache's counter with st.global at the counter's shared offset (an nvcc fold, see
# gpugb_lean_table_reset).  This call re-runs what call 1 could not:
#  - the lean self-test with --lean-fast-key;
#  - an A/B of kernelbench --lean-fast-key off|on at 2^2-2^12 groups, forced shared_hash;
#  - Nsight Compute per SASS instruction of the fast kernel at 2^8 groups (call 1 has the plan's).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s30-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick --lean-fast-key --only lean > "$O/selftest-fast-key.log" 2>&1
echo "selftest --lean-fast-key --only lean rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-fast-key.log")"
grep -E "^FAIL" "$O/selftest-fast-key.log" | head -5
# time(off) / time(on), above 1: the fast kernel is faster.
kb() { CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 "$@"; }
t0=$(date +%s)
for round in 1 2; do
  for v in off on; do
    kb --lean-fast-key $v --keys 4,8 --payloads 1,4 --dists uniform,zipf1.0 --log2-groups 2:12:2 \
      --methods shared_hash --csv "$O/fk-$v-$round.csv" --md "$O/fk-$v-$round.md" > "$O/fk-$v-$round.log" 2>&1
    echo "fast key $v $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/fk-$v-$round.md")"
  done
done
echo "A/B took $(( $(date +%s) - t0 )) s"
python3 test/kernelbench/ab_table.py "$O/fk-off-1.csv" "$O/fk-on-1.csv" "$O/fk-off-2.csv" "$O/fk-on-2.csv" \
  | tee "$O/fk-ab.md" | grep -E "^\|" | cut -d'|' -f2-9
if command -v ncu > /dev/null; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 ncu --clock-control none --launch-count 1 -k "regex:gpugb_lean_fast_kernel" \
    --section SourceCounters --section InstructionStats --section WarpStateStats --section Occupancy \
    --section MemoryWorkloadAnalysis -f -o "$O/fast-2e8" \
    test/bin/kernelbench --lean-fast-key on --keys 4 --payloads 1 --dists uniform --log2-groups 8 \
    --methods shared_hash --bw-gib 1 --max-seconds 30 --md /dev/null > "$O/ncu-on.log" 2>&1
  echo "ncu on rc=$? ($(( $(date +%s) - t0 )) s)"
  ncu -i "$O/fast-2e8.ncu-rep" --page source --csv --print-source sass > "$O/fast-2e8-sass.csv" 2> "$O/ncu-page.err"
  echo "  per-instruction page rc=$? ($(wc -l < "$O/fast-2e8-sass.csv") lines)"
  ncu -i "$O/fast-2e8.ncu-rep" --page details > "$O/fast-2e8-details.txt" 2>> "$O/ncu-page.err"
  grep -E "^ +(Executed Instructions|Achieved Occupancy|Memory Throughput|Duration|Registers Per Thread) " "$O/fast-2e8-details.txt"
  gzip -f "$O/fast-2e8-sass.csv"
fi
rm -f "$O"/*.ncu-rep
echo "total $(( $(date +%s) - T0 )) s"

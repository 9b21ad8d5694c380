#!/usr/bin/env bash
# Session 30, call 1 (about 7 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session29-2026-11-29/next/call1.sh", carry=[".gpu-box"], timeout_s=600)
# What session 29 left unrun, and where the lean kernel's instructions go:
#  - first the whole self-test without the experiment: 8f303a4 gave gpugb_lean_shared_kernel,
#    the plan's lean kernel, a uniform branch that is never taken with the experiment off, and
#    no GPU has run it since;
#  - the lean self-test with --lean-fast-key (8f303a4, b097da5 and 1abdd71, an experiment; cases
#    80-88: the one-word probe, and gpugb_lean_fast_kernel for whole tables);
#  - an A/B of kernelbench --lean-fast-key off|on at 2^2-2^12 groups, forced shared_hash;
#  - Nsight Compute, per SASS instruction, of the lean kernel at 2^8 groups (one payload):
#    session 29 measured 257 warp instructions per 32 rows there against 59 for
#    test/kernelbench/shared_bound.cu's block table, which runs at the device-memory floor.
# Before the call, on the development machine (.gpu-box is git-ignored):
#   ../shared/gpu-box/fetch-debs.sh && mkdir -p .gpu-box/scripts && cp ../shared/gpu-box/*.sh .gpu-box/scripts/
#   git rev-parse HEAD > .gpu-box/HEAD
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s30-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all shared_bound > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 200 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest (every case) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
t0=$(date +%s)
timeout 120 test/bin/device_selftest --require-gpu --quick --lean-fast-key --only lean > "$O/selftest-fast-key.log" 2>&1
echo "selftest --lean-fast-key --only lean rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-fast-key.log")"
grep -E "^FAIL" "$O/selftest-fast-key.log" | head -5
# time(off) / time(on), above 1: the one-word lookup is faster.
kb() { CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 "$@"; }
t0=$(date +%s)
for round in 1 2; do
  for v in off on; do
    kb --lean-fast-key $v --keys 4,8 --payloads 1,4 --dists uniform,zipf1.0 --log2-groups 2:12:2 \
      --methods shared_hash --csv "$O/fk-$v-$round.csv" --md "$O/fk-$v-$round.md" > "$O/fk-$v-$round.log" 2>&1
    echo "fast key $v $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/fk-$v-$round.md"), $(grep -c 'lean fast key' "$O/fk-$v-$round.log") runs took it"
  done
done
echo "A/B took $(( $(date +%s) - t0 )) s"
python3 test/kernelbench/ab_table.py "$O/fk-off-1.csv" "$O/fk-on-1.csv" "$O/fk-off-2.csv" "$O/fk-on-2.csv" \
  | tee "$O/fk-ab.md" | grep -E "^\|" | cut -d'|' -f2-6
# Per SASS instruction: executed instructions and stall samples of the lean kernel (off: the
# general lookup) at 2^8 groups, one payload, 4-byte keys.
if command -v ncu > /dev/null; then
  for v in off on; do
    t0=$(date +%s)
    CUDA_MODULE_LOADING=EAGER timeout 60 ncu --clock-control none --launch-count 1 -k "regex:gpugb_lean_(shared|fast)_kernel" \
      --section SourceCounters --section InstructionStats --section WarpStateStats -f -o "$O/lean-2e8-$v" \
      test/bin/kernelbench --lean-fast-key $v --keys 4 --payloads 1 --dists uniform --log2-groups 8 \
      --methods shared_hash --bw-gib 1 --max-seconds 30 --md /dev/null > "$O/ncu-$v.log" 2>&1
    echo "ncu $v rc=$? ($(( $(date +%s) - t0 )) s)"
    ncu -i "$O/lean-2e8-$v.ncu-rep" --page source --csv --print-source sass > "$O/lean-2e8-$v-sass.csv" 2> "$O/ncu-page-$v.err"
    echo "  per-instruction page rc=$? ($(wc -l < "$O/lean-2e8-$v-sass.csv") lines); $(grep -E 'Executed Instructions ' "$O/ncu-$v.log" | head -1)"
  done
fi
cd "$O" && tar czf call1.tgz ./*.log ./*.csv ./*.md ./*.err ./*.ncu-rep 2>/dev/null && rm -f ./*.log ./*.csv ./*.md ./*.err ./*.ncu-rep
echo "total $(( $(date +%s) - T0 )) s"

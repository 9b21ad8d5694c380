#!/usr/bin/env bash
# Session 31, call 4 (about 3 minutes; what the budget left), carrying only the HEAD file:
#   run(command="bash docs/session31-2026-11-29/scripts/call4.sh", carry=[".gpu-box/HEAD"], timeout_s=300)
# Session 30's next/call2.sh, trimmed: the fast kernel's wide table for two to four sums (the
# experiments --lean-fast-key and --lean-fast-wide together, never run on a GPU):
#  - the lean self-test with both options (cases of two sums must take one block);
#  - one A/B round against the plan, 4-byte keys, 2 and 4 payloads, uniform and Zipf 1.0,
#    2^2-2^12 groups (floor misses at four payloads, 2^10-2^12: 3.7-7.5x in call 1's grid).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s31-call4}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 60 test/bin/device_selftest --require-gpu --quick --lean-fast-key --lean-fast-wide --only lean > "$O/selftest.log" 2>&1
echo "selftest --lean-fast-key --lean-fast-wide --only lean rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
kb() { CUDA_MODULE_LOADING=EAGER timeout 45 test/bin/kernelbench --bw-gib 1 --max-seconds 40 "$@"; }
kb --keys 4 --payloads 2,4 --dists uniform,zipf1.0 --log2-groups 2:12:2 --methods shared_hash \
  --csv "$O/plan.csv" --md "$O/plan.md" > "$O/plan.log" 2>&1
echo "plan rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/plan.md")"
kb --lean-fast-key on --lean-fast-wide on --keys 4 --payloads 2,4 --dists uniform,zipf1.0 --log2-groups 2:12:2 \
  --methods shared_hash --csv "$O/wide.csv" --md "$O/wide.md" > "$O/wide.log" 2>&1
echo "wide rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/wide.md")"
python3 test/kernelbench/ab_table.py "$O/plan.csv" "$O/wide.csv" | tee "$O/wide-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
cd "$O" && tar czf call4.tgz ./*.log ./*.csv ./*.md 2>/dev/null && rm -f ./*.log ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"

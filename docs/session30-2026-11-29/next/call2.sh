#!/usr/bin/env bash
# Session 31, call 2 (about 4 minutes), carrying .gpu-box:
#   run(command="bash docs/session30-2026-11-29/next/call2.sh", carry=[".gpu-box"], timeout_s=600)
# The fast kernel's wide table for two to four sums (cuda/launch.cu, fast_wide_slots: the
# experiments --lean-fast-key and --lean-fast-wide together, never run on a GPU): its 1024-thread
# instances have registers for four sums (64, no spills) where the five-blocks-an-SM one spills;
# and for counts only (--payloads 0, kernelbench's option since session 30), which the plan keeps
# on the whole table's own rules because nothing measured the wide table without a sum.
#  - the lean self-test with both options (cases of two sums must take one block);
#  - an A/B against the plan, four payloads, 2^2-2^12 groups: above 1, the wide fast kernel wins
#    (floor misses at four payloads, 2^10-2^12: 4.0-7.4x in session 30's grid).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s31-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick --lean-fast-key --lean-fast-wide --only lean > "$O/selftest.log" 2>&1
echo "selftest --lean-fast-key --lean-fast-wide --only lean rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
kb() { CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 "$@"; }
for round in 1 2; do
  kb --keys 4,8 --payloads 2,4 --dists uniform,zipf1.0 --log2-groups 2:12:2 --methods shared_hash \
    --csv "$O/plan-$round.csv" --md "$O/plan-$round.md" > "$O/plan-$round.log" 2>&1
  echo "plan $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/plan-$round.md")"
  kb --lean-fast-key on --lean-fast-wide on --keys 4,8 --payloads 2,4 --dists uniform,zipf1.0 --log2-groups 2:12:2 \
    --methods shared_hash --csv "$O/wide-$round.csv" --md "$O/wide-$round.md" > "$O/wide-$round.log" 2>&1
  echo "wide $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/wide-$round.md")"
done
python3 test/kernelbench/ab_table.py "$O/plan-1.csv" "$O/wide-1.csv" "$O/plan-2.csv" "$O/wide-2.csv" \
  | tee "$O/wide-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
# counts only: the plan (the whole table's own rules) against --lean-fast-wide
for round in 1 2; do
  for v in off on; do
    kb --lean-fast-wide $v --keys 4,8 --payloads 0 --dists uniform,zipf1.0 --log2-groups 2:12:2 --methods shared_hash \
      --csv "$O/c0-$v-$round.csv" --md "$O/c0-$v-$round.md" > "$O/c0-$v-$round.log" 2>&1
    echo "counts only, wide $v $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/c0-$v-$round.md")"
  done
done
python3 test/kernelbench/ab_table.py "$O/c0-off-1.csv" "$O/c0-on-1.csv" "$O/c0-off-2.csv" "$O/c0-on-2.csv" \
  | tee "$O/c0-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
cd "$O" && tar czf call2.tgz ./*.log ./*.csv ./*.md 2>/dev/null && rm -f ./*.log ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"

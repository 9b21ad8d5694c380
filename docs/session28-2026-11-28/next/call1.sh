#!/usr/bin/env bash
# Session 29, call 1 (about 9.5 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session28-2026-11-28/next/call1.sh", carry=[".gpu-box"], timeout_s=600)
# What session 28 landed after its last GPU call, 54e7383 (auto keeps the partial lean table
# for a group of 5 % or more up to 12 x L2: Zipf 1.0 at 2^22), and the code of ef72128 and
# 8f3be08 under the whole self-test:
#  - the self-test, every case (--quick);
#  - an A/B of the experiment spec.lean_one_block_partial (kernelbench --lean-one-block-partial);
#  - the full kernel benchmark grid in what is left (auto at Zipf 1.0, 2^22: shared_hash
#    expected, after the run-time check's switch from the planned sort).
# Before the call, on the development machine (.gpu-box is git-ignored):
#   ../shared/gpu-box/fetch-debs.sh && mkdir -p .gpu-box/scripts && cp ../shared/gpu-box/*.sh .gpu-box/scripts/
#   git rev-parse HEAD > .gpu-box/HEAD
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 180 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
# A/B of session 28's experiment, spec.lean_one_block_partial: partial lean tables in one
# 1024-thread block an SM (2^13 slots with one sum, 2^12 with four) against two 512-thread
# blocks of 2048 slots; forced shared_hash, where partial tables run.  time(off)/time(on) above
# 1: the experiment is faster.  If it wins, make it the plan (cuda/launch.cu,
# one_block_partial_slots) and re-measure auto.
t0=$(date +%s)
# (At 2^12 with one payload the one-block whole table runs in both arms: a control.)
kb() { CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 "$@"; }
for round in 1 2; do
  for v in off on; do
    kb --lean-one-block-partial $v --keys 4,8 --payloads 1,4 --dists uniform,zipf0.5,zipf1.0,zipf1.5 \
      --log2-groups 12:20:4 --methods shared_hash \
      --csv "$O/obp-$v-$round.csv" --md "$O/obp-$v-$round.md" > "$O/obp-$v-$round.log" 2>&1
    echo "one-block partial $v $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/obp-$v-$round.md"), $(grep -c 'one-block partial lean table' "$O/obp-$v-$round.log") runs took it"
  done
done
echo "A/B took $(( $(date +%s) - t0 )) s; time(off) / time(on), above 1: one block is faster"
python3 test/kernelbench/ab_table.py "$O/obp-off-1.csv" "$O/obp-on-1.csv" "$O/obp-off-2.csv" "$O/obp-on-2.csv" \
  | tee "$O/obp-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
left=$(( 575 - ($(date +%s) - T0) ))
if [ "$left" -lt 80 ]; then echo "no time left for the grid ($left s)"; left=25; fi
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout $(( left - 5 )) test/bin/kernelbench --reps 1 --max-seconds $(( left - 20 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
sed -n '/^Missed: auto within 20/,/^Missed: best/p' "$O/grid.md" | grep "^- "
grep -E "zipf1.0 .*2\^22|zipf1\.0, g=2\^22" "$O/grid.log" | head -4
cd "$O" && tar czf call1.tgz ./*.log ./*.csv ./*.md 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"

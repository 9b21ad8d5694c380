#!/usr/bin/env bash
# Session 31, call 1 (about 9 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session30-2026-11-29/next/call1.sh", carry=[".gpu-box"], timeout_s=600)
#  - test/kernelbench/partition_bound, both designs, 2^20-2^26 groups (session 30 ran only the
#    "dense" design at 2^20-2^22; its 2^24-2^26 points failed a check that wanted an entry for
#    groups without rows, fixed in 94cf411; the "global" design, c373ebc, never ran);
#  - the whole self-test: since call 1 of session 30 the fast lean kernel became the plan
#    (0d83924) and its whole tables went wide from 64 groups (60d6cc2); session 30 ran the lean
#    cases and subsets of them on the GPU, not the whole suite;
#  - the full kernel grid with the wide table planned.
# Before the call, on the development machine (.gpu-box is git-ignored):
#   ../shared/gpu-box/fetch-debs.sh && mkdir -p .gpu-box/scripts && cp ../shared/gpu-box/*.sh .gpu-box/scripts/
#   git rev-parse HEAD > .gpu-box/HEAD
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s31-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
( make -s -j6 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j6 -C test/kernelbench CUDA_ARCHS=90 all partition_bound > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 120 test/bin/partition_bound > "$O/partition_bound.md" 2> "$O/partition_bound.err"
echo "partition_bound rc=$? ($(( $(date +%s) - t0 )) s)"; grep -E "^\| [14] " "$O/partition_bound.md"; tail -3 "$O/partition_bound.err"
t0=$(date +%s)
timeout 200 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
left=$(( 580 - ($(date +%s) - T0) ))
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout $(( left - 5 )) test/bin/kernelbench --reps 1 --max-seconds $(( left - 20 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
sed -n '/^Missed: auto within 20/,/^Missed: best/p' "$O/grid.md" | grep "^- "
cd "$O" && tar czf call1.tgz ./*.log ./*.csv ./*.md ./*.err 2>/dev/null && rm -f ./*.log ./*.csv ./*.md ./*.err
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 32, call 1 (about 8 minutes), from the repository root on the GPU box. The working tree with
# the whole of .gpu-box exceeds the device tool's 64 MiB: carry only what is needed.
#   run(command="bash docs/session31-2026-11-29/next/call1.sh", carry=[".gpu-box/HEAD"], timeout_s=600)
#  - the whole self-test at HEAD: since session 31's ca8e416 the plan runs the fast lean kernel's wide
#    table for two to four sums at any g and counts only from 64 groups; session 31 ran those
#    instances only under the experiments --lean-fast-key --lean-fast-wide (call 4, lean cases);
#  - the full kernel grid with that plan (call 4's A/B says four payloads at 2^10 should come within
#    3x of the floor: 3.2x faster where call 1's grid had 3.7-4.3x the floor).
# Before the call: git rev-parse HEAD > .gpu-box/HEAD
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s32-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
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
gzip -9 "$O"/*.log
cd "$O" && tar czf call1.tgz ./*.gz ./*.csv ./*.md 2>/dev/null && rm -f ./*.gz ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"

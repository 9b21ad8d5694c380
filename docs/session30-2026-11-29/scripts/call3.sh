#!/usr/bin/env bash
# Session 30, call 3 (about 8 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session30-2026-11-29/scripts/call3.sh", carry=[".gpu-box"], timeout_s=600)
# 0d83924 made gpugb_lean_fast_kernel the plan for whole lean tables of one key, no NULLs and at
# most one sum.  Since call 1's full self-test (593 cases, 0 failed at 5f36922) only the lean
# dispatch changed, so the lean self-test without the experiment checks the plan (every case
# that must take the fast kernel, and none that must not), then the full kernel grid.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s30-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick --only lean > "$O/selftest-lean.log" 2>&1
echo "selftest --only lean rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-lean.log")"
grep -E "^FAIL" "$O/selftest-lean.log" | head -5
left=$(( 580 - ($(date +%s) - T0) ))
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout $(( left - 5 )) test/bin/kernelbench --reps 1 --max-seconds $(( left - 20 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
sed -n '/^Missed: auto within 20/,/^Missed: best/p' "$O/grid.md" | grep "^- "
echo "runs with the fast lean kernel: $(grep -c 'fast lean kernel' "$O/grid.log")"
cd "$O" && tar czf call3.tgz ./*.log ./*.csv ./*.md 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"

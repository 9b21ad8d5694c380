#!/usr/bin/env bash
# Session 27, call 1 (about 9 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session26-2026-11-28/next/call1.sh", carry=[".gpu-box"], timeout_s=600)
# Checks what session 26 landed after its last GPU call (docs/session26-2026-11-28/README.md,
# section 5): self-test case 70 (deferred rows retried after growth) and every partial case,
# pg_regress in gpu mode (strategy.sql's 10 % / 3 % partial-lean plans), then the full kernel
# benchmark grid in what is left (8-byte keys and Zipf 1.5 never ran on the landing tree).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call1}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
( make -s -j16 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j16 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 90 test/bin/device_selftest --require-gpu --quick --only "lean" > "$O/selftest.log" 2>&1
echo "selftest --only lean rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5; grep -E "estimate 20000" "$O/selftest.log" | cut -c1-220
t0=$(date +%s)
OUT="$O/regress" timeout 200 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
echo "left $(left) s"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --reps 1 --max-seconds $(( $(left) - 15 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
cd "$O" && tar czf call1.tgz ./*.log ./*.csv ./*.md regress 2>/dev/null && rm -rf ./*.log ./*.csv regress
echo "total $(( $(date +%s) - T0 )) s"

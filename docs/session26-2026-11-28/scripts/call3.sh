#!/usr/bin/env bash
# Session 26, call 3: the landing tree (deferred cold rows; partial lean table from a 5 % group).
# Builds; self-test --quick; pg_regress in gpu mode; pgTAP and qgen with auto; then the kernel
# benchmark grid on 4-byte keys (every distribution, 1 and 4 payloads, 2^0-2^26) in what is left.
#   run(command="bash docs/session26-2026-11-28/scripts/call3.sh", carry=[".gpu-box"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call3}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j16 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j16 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5; grep -E "estimate 20000" "$O/selftest.log" | grep -E "\[(shared_hash|auto)\]" | cut -c1-200
t0=$(date +%s)
OUT="$O/regress" timeout 200 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
t0=$(date +%s)
STRATEGIES=auto QGEN_STRATEGY_QUERIES=300 OUT="$O/strategies" timeout 200 \
  bash test/gpu-box.sh strategies > "$O/strategies.log" 2>&1
echo "strategies auto rc=$? ($(( $(date +%s) - t0 )) s):"; grep -E '^Result|queries checked' "$O/strategies.log" | tail -3
grep -E '^not ok|Failed test' "$O"/strategies/pgtap-*.log 2>/dev/null | head -5
echo "left $(left) s"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --reps 1 --keys 4 --max-seconds $(( $(left) - 15 )) \
  --csv "$O/grid-4.csv" --md "$O/grid-4.md" > "$O/grid-4.log" 2>&1
echo "kernelbench --keys 4 rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid-4.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid-4.md"
cd "$O" && tar czf call3.tgz ./*.log ./*.csv ./*.md strategies regress 2>/dev/null &&
  rm -rf ./*.log ./*.csv strategies regress
echo "total $(( $(date +%s) - T0 )) s"

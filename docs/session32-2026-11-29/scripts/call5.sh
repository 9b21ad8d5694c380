#!/usr/bin/env bash
# Session 32, call 5 (about 9 minutes), from the repository root on the GPU box, carrying what
# PostgreSQL needs (with the docs, the whole of .gpu-box exceeds the device tool's 64 MiB):
#   run(command="bash docs/session32-2026-11-29/scripts/call5.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"], timeout_s=600)
# The self-test with PARTITION forced, then the PostgreSQL path at HEAD in gpu mode: pg_regress,
# then pgTAP and qgen with gpugb.strategy = auto and with partition forced (session 32: the lean
# partition kernel), then qgen alone with shared_hash forced.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s32-call5}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j8 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" )
wait
echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 90 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
grep -E "^ok .*partition moved" "$O/selftest.log" | cut -c1-200
echo "cases with moved launches: $(grep -c "moved launches" "$O/selftest.log"), with lean ones: $(grep -c -E "moved launches \([1-9]" "$O/selftest.log")"
t0=$(date +%s)
OUT="$O/regress" timeout -k 5 170 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
t0=$(date +%s)
# pgTAP took 114 s in session 29; qgen runs about 33 queries a second in 12 streams.
STRATEGIES="auto partition" QGEN_STRATEGY_QUERIES=800 QGEN_JOBS=12 OUT="$O/strategies" timeout -k 5 $(( $(left) - 10 )) \
  bash test/gpu-box.sh strategies > "$O/strategies.log" 2>&1
rc=$?
pkill -INT -f 'postgres: pg ' 2>/dev/null; sleep 1
echo "strategies auto, partition rc=$rc ($(( $(date +%s) - t0 )) s):"; grep -E "^Result|queries checked|^== gpugb.strategy" "$O/strategies.log" | tail -8
grep -E '^not ok|Failed test' "$O"/strategies/pgtap-*.log 2>/dev/null | head -5
if [ "$(left)" -gt 60 ]; then
  t0=$(date +%s)
  STRATEGIES="shared_hash" PGTAP=0 QGEN_STRATEGY_QUERIES=800 QGEN_JOBS=12 OUT="$O/shared" timeout -k 5 $(( $(left) - 15 )) \
    bash test/gpu-box.sh strategies > "$O/shared.log" 2>&1
  echo "qgen shared_hash rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'queries checked' "$O/shared.log" | tail -1)"
fi
wait
cd "$O" && tar czf call5.tgz ./*.log ./*.csv ./*.md strategies regress shared 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md strategies regress shared
echo "total $(( $(date +%s) - T0 )) s"

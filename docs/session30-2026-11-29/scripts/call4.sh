#!/usr/bin/env bash
# the PostgreSQL path at HEAD in gpu mode, where gpugb_lean_fast_kernel is now the plan for
# lean tables of one key, no NULLs and at most one sum (0d83924): pg_regress, then pgTAP and
# qgen with gpugb.strategy = auto.
#   run(command="bash docs/session30-2026-11-29/scripts/call4.sh", carry=[".gpu-box"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s30-call4}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 570 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" )
echo "build done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
OUT="$O/regress" timeout -k 5 170 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
t0=$(date +%s)
# pgTAP took 164 s in session 28; qgen runs about 33 queries a second in 12 streams.
STRATEGIES=auto QGEN_STRATEGY_QUERIES=1500 QGEN_JOBS=12 OUT="$O/strategies" timeout -k 5 $(( $(left) - 10 )) \
  bash test/gpu-box.sh strategies > "$O/strategies.log" 2>&1
rc=$?
pkill -INT -f 'postgres: pg ' 2>/dev/null; sleep 1
echo "strategies auto rc=$rc ($(( $(date +%s) - t0 )) s):"; grep -E '^Result|queries checked' "$O/strategies.log" | tail -3
grep -E '^not ok|Failed test' "$O"/strategies/pgtap-*.log 2>/dev/null | head -5
cd "$O" && tar czf call4.tgz ./*.log strategies regress 2>/dev/null && rm -rf ./*.log strategies regress
echo "total $(( $(date +%s) - T0 )) s"

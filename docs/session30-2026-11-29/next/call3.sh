#!/usr/bin/env bash
# Session 31, call 3 (about 9.5 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session30-2026-11-29/next/call3.sh", carry=[".gpu-box"], timeout_s=600)
# The PostgreSQL path at HEAD in gpu mode with the fast lean kernel and its wide table planned
# (0d83924, 60d6cc2; session 30 ran it at c80f607, before the wide table): pg_regress, then
# pgTAP and qgen with gpugb.strategy = auto and with shared_hash forced, which takes the lean
# kernels on more launches.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s31-call3}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" )
echo "ext build done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
OUT="$O/regress" timeout -k 5 170 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
t0=$(date +%s)
# pgTAP took 114 s in session 29; qgen runs about 33 queries a second in 12 streams.
STRATEGIES="auto shared_hash" QGEN_STRATEGY_QUERIES=800 QGEN_JOBS=12 OUT="$O/strategies" timeout -k 5 $(( $(left) - 10 )) \
  bash test/gpu-box.sh strategies > "$O/strategies.log" 2>&1
rc=$?
pkill -INT -f 'postgres: pg ' 2>/dev/null; sleep 1
echo "strategies auto, shared_hash rc=$rc ($(( $(date +%s) - t0 )) s):"; grep -E "^Result|queries checked|^== gpugb.strategy" "$O/strategies.log" | tail -8
grep -E '^not ok|Failed test' "$O"/strategies/pgtap-*.log 2>/dev/null | head -5
wait
cd "$O" && tar czf call3.tgz ./*.log ./*.csv ./*.md strategies regress 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md strategies regress
echo "total $(( $(date +%s) - T0 )) s"

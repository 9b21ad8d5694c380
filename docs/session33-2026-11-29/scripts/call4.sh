#!/usr/bin/env bash
# Session 33, call 4, from the repository root on the GPU box, carrying what PostgreSQL needs:
#   run(command="bash docs/session33-2026-11-29/scripts/call4.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"], timeout_s=600)
# The PostgreSQL path at HEAD in gpu mode (gpugb.require_gpu=on: a fallback fails): pg_regress;
# pgTAP and qgen with shared_hash forced (the lean fast kernel's slow path and prefetch, session
# 33); qgen with partition forced (the lean partition kernel, 12-byte moved rows) and with auto.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s33-call4}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" )
echo "build done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout -k 5 120 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
t0=$(date +%s)
STRATEGIES="shared_hash" QGEN_STRATEGY_QUERIES=800 QGEN_JOBS=12 OUT="$O/shared" \
  timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/shared.log" 2>&1
echo "pgTAP and qgen shared_hash rc=$? ($(( $(date +%s) - t0 )) s):"
grep -E "^Result|queries checked" "$O/shared.log" | tail -4
for s in partition auto; do
  [ "$(left)" -gt 60 ] || { echo "qgen $s skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$s" PGTAP=0 QGEN_STRATEGY_QUERIES=800 QGEN_JOBS=12 OUT="$O/$s" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$s.log" 2>&1
  echo "qgen $s rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'queries checked' "$O/$s.log" | tail -1)"
done
cd "$O" && tar czf call4.tgz ./*.log shared partition auto 2>/dev/null && rm -rf ./*.log shared partition auto
echo "total $(( $(date +%s) - T0 )) s"

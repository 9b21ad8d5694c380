#!/usr/bin/env bash
# Session 44's second call (about 6 minutes; written in session 43): main's two host-only planning rules
# that came after session 43's device time ran out (8d4d835: the lean partition's line of 3 only for
# packed rows; 418aa01: not where the statistics show NULLs, EXPLAIN's Estimated Nulls), through
# PostgreSQL on the GPU: pgTAP and qgen with auto, then with PARTITION forced.  Merge s43-retry-room first
# if call 1 passed it, so that this call runs it too.
#   run(command="bash docs/session43-2026-11-30/next/s44-call2.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s44-call2}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(git rev-parse HEAD 2>/dev/null || echo unknown)"
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" )
for step in ${STEPS:-auto partition}; do
  [ "$(left)" -gt 150 ] || { echo "pgTAP $step skipped (time: $(left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Estimated Nulls" "$O/$step.log" | tail -10
done
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s44-call2.tgz ./*.gz $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.gz $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

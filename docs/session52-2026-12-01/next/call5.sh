#!/usr/bin/env bash
# Session 52, call 5: the extension built from main's working tree (GPUGB_PARTITION_WARP_SEARCH and
# GPUGB_DIRECT_FLUSH_STORES on), pgTAP and qgen through PostgreSQL with PARTITION forced, then auto.
#   run(command="bash docs/session52-2026-12-01/next/call5.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 585
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j10 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$OUT/ext-build.log" 2>&1
  echo "ext build rc=$? ($(( $(date +%s) - CALL_T0 )) s)" > "$OUT/ext-build.rc" )
cat "$OUT/ext-build.rc"
for s in partition auto; do
  [ "$(call_left)" -gt 125 ] || { echo "pgTAP $s skipped (time: $(call_left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES=$s QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$OUT/$s" \
    timeout -k 5 $(( $(call_left) - 12 )) bash test/gpu-box.sh strategies > "$OUT/pg-$s.log" 2>&1
  echo "pgTAP and qgen $s rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$OUT/pg-$s.log" | tail -10
done
call_pack s52-call5

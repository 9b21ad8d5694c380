#!/usr/bin/env bash
# Session 34, call 2 (a copy of session 33's next/call2.sh) (about 9 minutes), carrying what PostgreSQL needs (the postgresql-15 deb
# repacked without bitcode, translations and man pages, docs/session33-2026-11-29/README.md says
# how, or the carry exceeds 64 MiB):
#   run(command="bash docs/session34-2026-11-29/next/call2.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"], timeout_s=600)
# The PostgreSQL path at HEAD in gpu mode: the whole of pg_regress (session 33's call 4 cut it at
# 120 s: text_minmax and parallel take about 40 s each), then pgTAP with auto and with partition.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s34-call2}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" )
echo "build done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout -k 5 240 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
for s in auto partition; do
  [ "$(left)" -gt 170 ] || { echo "pgTAP $s skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$s" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$s" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$s.log" 2>&1
  echo "pgTAP and qgen $s rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked" "$O/$s.log" | tail -3
done
cd "$O" && tar czf call2.tgz ./*.log auto partition 2>/dev/null && rm -rf ./*.log auto partition
echo "total $(( $(date +%s) - T0 )) s"

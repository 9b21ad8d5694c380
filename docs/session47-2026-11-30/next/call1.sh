#!/usr/bin/env bash
# Session 47's first call: main through PostgreSQL on the GPU with PARTITION's compact flush (session 46, 3bbe12a)
# and the list's trap (session 47), never run through PostgreSQL: the extension built on the box, then pgTAP and qgen
# with PARTITION forced, then with auto.  As session 45's next/s46-call1.sh, with STEPS="partition auto".
#   run(command="bash docs/session47-2026-11-30/next/call1.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s47-call1}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j14 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" )
for step in ${STEPS:-partition auto}; do
  [ "$(left)" -gt 120 ] || { echo "pgTAP $step skipped (time: $(left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=14 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$O/$step.log" | tail -10
done
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s47-call1.tgz ./*.gz $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.gz $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

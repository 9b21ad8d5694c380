#!/usr/bin/env bash
# Session 42, call 4 (about 4 minutes): main at 39a63a1 on the PostgreSQL path with auto (the default
# strategy), pgTAP and qgen, after call 3 ran them with PARTITION forced: the packer's direct hash
# (39a63a1) runs wherever auto takes PARTITION's moved rows.
#   run(command="bash docs/session42-2026-11-30/next/s42-call4.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"], timeout_s=500)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s42-call4}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 480 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)"
for step in ${STEPS:-auto}; do
  [ "$(left)" -gt 150 ] || { echo "pgTAP $step skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Overflowed" "$O/$step.log" | tail -8
done
gzip -9 "$O"/*.log; find "$O" -name "*.log" -exec gzip -9 {} +
cd "$O" && tar czf s42-call4.tgz ./*.log.gz $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.log.gz $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

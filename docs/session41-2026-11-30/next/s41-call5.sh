#!/usr/bin/env bash
# Session 41, call 5 (under 600 s): the code to merge into main (branch s41-scatter), on the GPU:
# 1. the whole self-test, while the extension builds;
# 2. the PostgreSQL path with PARTITION forced (pgTAP and qgen); STEPS="partition auto" as time allows.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session41-2026-11-30/next/s41-call5.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s41-call5}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" ) &
BUILD=$!
t0=$(date +%s)
timeout 300 test/bin/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-all.log"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
wait $BUILD
for step in ${STEPS:-partition auto}; do
  [ "$(left)" -gt 150 ] || { echo "pgTAP $step skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Overflowed" "$O/$step.log" | tail -8
done
gzip -9 "$O"/*.log
cd "$O" && tar czf s41-call5.tgz ./*.log.gz $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.log.gz $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

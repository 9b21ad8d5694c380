#!/usr/bin/env bash
# Session 44's second call: the retry round's grow rule at d2b87b1 (self-test case 124 and the PARTITION
# cases, device_selftest built here as test/bin/retry2), then main's host-only planning rules through
# PostgreSQL (pgTAP and qgen with auto, then PARTITION forced), as session 43's next/s44-call2.sh.
#   run(command="bash docs/session44-2026-11-30/next/call2.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins2.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s44-call2}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins2.tar.xz || exit 1
timeout 60 test/bin/retry2/device_selftest --require-gpu --quick --strategy partition --only "empty word" > "$O/case124.log" 2>&1
echo "case 124 rc=$?: $(grep -E '^(ok|FAIL).*empty word' "$O/case124.log" | cut -c1-300)"
t0=$(date +%s)
timeout 150 test/bin/retry2/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-partition.log"
grep -E "^FAIL" "$O/selftest-partition.log" | head -8 | cut -c1-400
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

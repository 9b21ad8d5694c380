#!/usr/bin/env bash
# Session 44's third call: the whole device self-test with the retry round's grow rule (test/bin/retry2,
# d2b87b1), run while the extension builds, then pgTAP and qgen with PARTITION forced at main (the NULL
# planning check now reads auto's plan under a forced strategy; call 2 failed it).
#   run(command="bash docs/session44-2026-11-30/next/call3.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins2.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s44-call3}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins2.tar.xz || exit 1
( t0=$(date +%s); timeout 320 test/bin/retry2/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
  echo "selftest rc=$? ($(( $(date +%s) - t0 )) s)" >> "$O/selftest-all.log" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" )
wait
tail -1 "$O/selftest-all.log"; tail -2 "$O/selftest-all.log" | head -1 | cut -c1-160
grep -E "^cases with" "$O/selftest-all.log"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
for step in ${STEPS:-partition}; do
  [ "$(left)" -gt 150 ] || { echo "pgTAP $step skipped (time: $(left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Failed test" "$O/$step.log" "$O/$step"/*.log 2>/dev/null | tail -10
done
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s44-call3.tgz ./*.gz $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.gz $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 38, call 5 (the rest of the session's device time, under 600 s): the self-test under auto with
# the self-test's changed expectation (auto's check may grow the table before any retry), then the
# PostgreSQL path with partition and auto forced in turn (pgTAP with qgen; the extension's build takes
# about 100 s, each strategy about 190 s), as session 37's next/s38-pg.sh.
#   run(command="bash docs/session38-2026-11-29/next/call5.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s38-call5}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" ) &
BUILD=$!
t0=$(date +%s)
timeout 60 test/bin/device_selftest --require-gpu --quick --strategy auto > "$O/selftest-auto.log" 2>&1
echo "selftest --strategy auto rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-auto.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-auto.log" | head -8 | cut -c1-400
wait $BUILD
for step in ${STEPS:-partition auto}; do
  [ "$(left)" -gt 170 ] || { echo "pgTAP $step skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$O/$step.log" | tail -6
done
cd "$O" && tar czf call5.tgz ./*.log $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.log $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

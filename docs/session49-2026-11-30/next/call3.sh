#!/usr/bin/env bash
# Session 49, call 3 (the last of the session's device time) at main 51df311 (2-byte partitions only for rows of at
# most 12 bytes, the publish's count of directly numbered groups):
# 1. the extension's build (in the background) beside the self-test's PARTITION quick set under --partition-cub-sort,
#    from test/bin/s49f (main's code);
# 2. pgTAP and qgen through PostgreSQL with PARTITION forced, then auto, as time allows.
#   tar cJf .gpu-box/bins-s49f.tar.xz test/bin/s49f/device_selftest
#   run(command="bash docs/session49-2026-11-30/next/call3.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s49f.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s49-call3}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( ${CALL_SECONDS:-555} - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s49f.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j10 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" > "$O/ext-build.rc" ) &
BUILD=$!
t0=$(date +%s)
timeout 220 test/bin/s49f/device_selftest --require-gpu --quick --strategy partition --partition-cub-sort > "$O/selftest-partition-cub.log" 2>&1
echo "selftest partition --partition-cub-sort rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition-cub.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-partition-cub.log" | head -8 | cut -c1-300
grep -E "^cases with (sorts|a direct)" "$O/selftest-partition-cub.log"
wait $BUILD; cat "$O/ext-build.rc"
for s in partition auto; do
  [ "$(left)" -gt 100 ] || { echo "pgTAP $s skipped (time: $(left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES=$s QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$O/$s" \
    timeout -k 5 $(( $(left) - 20 )) bash test/gpu-box.sh strategies > "$O/pg-$s.log" 2>&1
  echo "pgTAP and qgen $s rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$O/pg-$s.log" | tail -10
done
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s49-call3.tgz ./*.gz ./*.rc $(ls -d */ 2>/dev/null) 2>/dev/null; rm -rf ./*.gz ./*.rc $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

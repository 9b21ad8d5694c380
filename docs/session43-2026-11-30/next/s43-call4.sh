#!/usr/bin/env bash
# Session 43, call 4 (under 480 s): main at the lean partition's new line (3 rows a key, for launches and
# auto; was 8 and 12) on the GPU, binaries in test/bin/new:
# 1. the self-test's PARTITION and auto cases (the line changes which kernel they take), while the
#    extension builds;
# 2. auto, PARTITION and sort at 2^24 and 2^26 groups, every shape of the grid (auto within 20 % of the best);
# 3. pgTAP and qgen with auto, with what time is left.
#   run(command="bash docs/session43-2026-11-30/next/s43-call4.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=...)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s43-call4}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( ${DEADLINE:-450} - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" ) &
BUILD=$!
for s in partition auto; do
  t0=$(date +%s)
  timeout 150 test/bin/new/device_selftest --require-gpu --quick --strategy $s > "$O/selftest-$s.log" 2>&1
  echo "selftest --strategy $s rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$s.log" | cut -c1-160)"
  grep -E "^cases with" "$O/selftest-$s.log"
  grep -E "^FAIL" "$O/selftest-$s.log" | head -8 | cut -c1-400
done
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 110 test/bin/new/kernelbench --max-seconds 100 --reps 1 --log2-groups 24,26 \
  --methods auto,partition,sort --csv "$O/grid-24-26.csv" --md "$O/grid-24-26.md" > "$O/grid-24-26.log" 2>&1
echo "kernelbench grid-24-26 rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/grid-24-26.md")"
wait $BUILD
for step in ${STEPS:-auto}; do
  [ "$(left)" -gt 100 ] || { echo "pgTAP $step skipped (time: $(left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 5 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$O/$step.log" | tail -8
done
gzip -9 "$O"/*.log "$O"/*.csv 2>/dev/null
cd "$O" && tar czf s43-call4.tgz ./*.gz ./*.md $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.gz ./*.md $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

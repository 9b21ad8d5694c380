#!/usr/bin/env bash
# Session 43, call 3 (under 600 s): main at 68c9b0b (deferred lookups for both key widths and up to four sums)
# on the GPU, with the binaries of call 2 (test/bin/new):
# 1. the whole self-test, while the extension builds;
# 2. PARTITION's lean kernel at 4 rows a key (2^26 groups, --partition-lean-rows 2) against sort and
#    PARTITION's generic kernel, every key width, payload count and distribution but Zipf 1.5;
# 3. pgTAP and qgen with auto;
# 4. the grid's upper half (2^16-2^26) with what time is left.
#   run(command="bash docs/session43-2026-11-30/next/s43-call3.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s43-call3}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 590 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" ) &
BUILD=$!
t0=$(date +%s)
timeout 300 test/bin/new/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-all.log"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
kb() {	# name, seconds, options...
  local name=$1 secs=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout $(( secs + 10 )) test/bin/new/kernelbench --max-seconds $secs \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
kb lean26 80 --bw-gib 1 --reps 1 --log2-groups 26 --dists uniform,zipf0.5,zipf1.0 --methods partition,sort \
  --partition-lean-rows 2
grep -E "^  [48]-byte|^    (partition|sort|thrust) " "$O/lean26.log" | cut -c1-200
wait $BUILD
for step in ${STEPS:-auto}; do
  [ "$(left)" -gt 200 ] || { echo "pgTAP $step skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$O/$step.log" | tail -8
done
if [ "$(left)" -gt 60 ]; then
  kb grid-hi $(( $(left) - 25 )) --reps 1 --log2-groups 16:26:2 --methods auto,global_hash,partition,sort
else
  echo "grid-hi skipped (time: $(left) s left)"
fi
gzip -9 "$O"/*.log "$O"/*.csv 2>/dev/null
cd "$O" && tar czf s43-call3.tgz ./*.gz ./*.md $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.gz ./*.md $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

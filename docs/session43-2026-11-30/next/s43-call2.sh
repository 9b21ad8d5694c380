#!/usr/bin/env bash
# Session 43, call 2 (about 6 minutes): PARTITION's deferred lookups widened to 8-byte keys and two to four
# sums (cuda/partition_deferred.cuh, partition_deferred_rule.cuh), on the GPU:
# 1. the self-test's PARTITION cases (the empty slot's key among the 8-byte keys), while the extension builds;
# 2. forced PARTITION and auto, "before" (c75866f: deferred lookups for an int32 key and one sum only)
#    against "new", 4- and 8-byte keys, one and four payloads, uniform and Zipf 1.0, 2^16-2^24, one rep;
# 3. new at a group estimate 100 times too low, 8-byte keys (the retry path);
# 4. pgTAP and qgen with PARTITION forced.
#   make -s -j2 -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/new; make -s -j2 -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/new
#   (c75866f in a worktree) make -s -j2 -C test/kernelbench CUDA_ARCHS=90 BIN=/work/main/test/bin/before
#   tar cJf .gpu-box/bins.tar.xz test/bin/new/kernelbench test/bin/new/device_selftest test/bin/before/kernelbench
#   run(command="bash docs/session43-2026-11-30/next/s43-call2.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s43-call2}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" ) &
BUILD=$!
t0=$(date +%s)
timeout 150 test/bin/new/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-partition.log"
grep -E "^FAIL" "$O/selftest-partition.log" | head -8 | cut -c1-400
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 60 "$bin" --bw-gib 1 --max-seconds 55 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
for side in before new; do
  kb $side test/bin/$side/kernelbench --reps 1 --keys 4,8 --payloads 1,4 --log2-groups 16:24:2 \
    --dists uniform,zipf1.0 --methods partition,auto
done
echo "== before -> new"; python3 test/kernelbench/ab_table.py "$O/before.csv" "$O/new.csv" | grep -E "^\|"
grep -E "^    partition" "$O/new.log" | grep -c "deferred)" | sed 's/^/partition lines: /'
grep -oE "[0-9]+ deferred\)" "$O/new.log" | sort | uniq -c
kb low-new test/bin/new/kernelbench --reps 1 --keys 8 --payloads 1 --log2-groups 20,22 \
  --dists uniform,zipf1.0 --methods partition --estimate-scale 0.01
grep -E "^    partition" "$O/low-new.log" | cut -c1-240
wait $BUILD
for step in ${STEPS:-partition}; do
  [ "$(left)" -gt 150 ] || { echo "pgTAP $step skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Overflowed|Deferred|Retried" "$O/$step.log" | tail -12
done
gzip -9 "$O"/*.log "$O"/*.csv 2>/dev/null
cd "$O" && tar czf s43-call2.tgz ./*.gz ./*.md $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.gz ./*.md $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

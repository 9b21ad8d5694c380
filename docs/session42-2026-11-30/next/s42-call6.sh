#!/usr/bin/env bash
# Session 42, call 6 (under 580 s, the session's last device time): the branch s42-deferred-gids, where
# GPUGB_PARTITION_DEFERRED_GIDS is on: PARTITION's lean kernel over packed rows of an int32 key and at most
# one sum looks its group ids up at the flush (cuda/partition_deferred.cuh), not in the row loop.  One call
# measures and checks it, so that it can land if it wins:
# 1. the whole self-test with the branch's build, while the extension builds (the branch's source);
# 2. forced PARTITION and auto, main (39a63a1, test/bin/kernelbench-a) against the branch, 4-byte keys, one
#    payload (the rows it changes), 2^16-2^24, four distributions, three reps;
# 3. both at a group estimate 100 times too low (the global table overflows: the retry path), verified;
# 4. pgTAP and qgen with PARTITION forced, with the branch's extension.
#   run(command="bash docs/session42-2026-11-30/next/s42-call6.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=575)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s42-call6}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 555 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" ) &
BUILD=$!
t0=$(date +%s)
timeout 240 test/bin/deferred/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest (branch) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-all.log"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
wait $BUILD
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 90 "$bin" --bw-gib 1 --max-seconds 80 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
for side in main deferred; do
  bin=test/bin/kernelbench-a; [ $side = deferred ] && bin=test/bin/deferred/kernelbench
  kb $side $bin --reps 3 --keys 4 --payloads 1 --log2-groups 16:24:2 --dists uniform,zipf0.5,zipf1.0,zipf1.5 \
    --methods partition,auto
done
echo "== main -> deferred"; python3 test/kernelbench/ab_table.py "$O/main.csv" "$O/deferred.csv" | grep -E "^\|"
for side in main deferred; do
  bin=test/bin/kernelbench-a; [ $side = deferred ] && bin=test/bin/deferred/kernelbench
  kb low-$side $bin --reps 1 --keys 4 --payloads 1 --log2-groups 20,22 --dists uniform,zipf1.0 --methods partition \
    --estimate-scale 0.01
  grep -E "^    partition" "$O/low-$side.log" | cut -c1-200
done
for step in ${STEPS:-partition}; do
  [ "$(left)" -gt 140 ] || { echo "pgTAP $step skipped (time: $(left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Overflowed" "$O/$step.log" | tail -8
done
gzip -9 "$O"/*.log "$O"/*.csv 2>/dev/null; find "$O" -name "*.log" -exec gzip -9 {} +
cd "$O" && tar czf s42-call6.tgz ./*.gz ./*.md $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.gz ./*.md $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

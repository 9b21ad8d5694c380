#!/usr/bin/env bash
# Session 47, call 4: SHARED_HASH's one-block table with its group ids looked up at the flush
# (cuda/lean_deferred_kernel.cuh, never run before), built at main's working tree in test/bin/s47d:
# 1. kernel benchmark A/B, --lean-deferred off then on, forced SHARED_HASH and auto, 2^11-2^13 groups, both key
#    widths, one and four payloads, uniform, Zipf 0.5, 1.0 and 1.5, 3 reps;
# 2. the self-test's SHARED_HASH and auto cases (s47d), while the extension builds in the background;
# 3. pgTAP and qgen through PostgreSQL with SHARED_HASH forced, then auto, as time allows.
#   run(command="bash docs/session47-2026-11-30/next/call4.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s47d.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s47-call4}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s47d.tar.xz || exit 1
kb() {	# name, options...
  local name=$1 t0=$(date +%s); shift
  CUDA_MODULE_LOADING=EAGER timeout 100 test/bin/s47d/kernelbench --bw-gib 1 --max-seconds 90 --reps 3 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
}
G="--methods shared_hash,auto --keys 4,8 --payloads 1,4 --log2-groups 11:13:1 --dists uniform,zipf0.5,zipf1.0,zipf1.5"
kb deferred-off $G --lean-deferred off
kb deferred-on $G
echo "== --lean-deferred off -> on"
python3 test/kernelbench/ab_table.py "$O/deferred-off.csv" "$O/deferred-on.csv" | grep -E "^\|"
zcat -f "$O/deferred-on.log" | grep -c "ids looked up at the flush" | sed 's/^/runs that took the deferred table: /'
# after the A/B, so that the build's CPU load falls on neither side of it
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" > "$O/ext-build.rc" ) &
BUILD=$!
for s in shared_hash auto; do
  t0=$(date +%s)
  timeout 150 test/bin/s47d/device_selftest --require-gpu --quick --strategy $s > "$O/selftest-$s.log" 2>&1
  echo "selftest $s rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$s.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/selftest-$s.log" | head -8 | cut -c1-300
done
wait $BUILD; cat "$O/ext-build.rc"
for step in shared_hash auto; do
  [ "$(left)" -gt 150 ] || { echo "pgTAP $step skipped (time: $(left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=14 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/pg-$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Deferred" "$O/pg-$step.log" | tail -10
done
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s47-call4.tgz ./*.gz ./*.md ./*.csv ./*.rc $(ls -d */ 2>/dev/null) 2>/dev/null; rm -rf ./*.gz ./*.md ./*.rc $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

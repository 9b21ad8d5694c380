#!/usr/bin/env bash
# Session 39, call 4 (under 600 s): the code after session 39's changes:
#  - the group counter's exhausted flag (949f694), every strategy's claim path;
#  - PARTITION's lookup bound on by default (spec.partition_probe_unbounded keeps the old), now also in
#    the generic partition kernel (gpugb_partition_global_find);
#  - Chao1 in the run-time check by default (spec.observed_uniform_only keeps the old).
# 1. the whole self-test (cases 122-123 must overflow under PARTITION), while the extension builds;
# 2. kernelbench: forced PARTITION at 0.08x (lean, and generic with --partition-lean off, bound on and
#    off), auto at 1e-5x on Zipf 1.0, and the default path at the right estimate (against call 3's
#    kb-flag runs);
# 3. the PostgreSQL path with PARTITION forced (pgTAP and qgen), as time allows.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session39-2026-11-29/next/call4.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s39-call4}; mkdir -p "$O"
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
kb() {	# name, limit, options...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout "$limit" test/bin/kernelbench --bw-gib 1 --reps 1 --max-seconds $(( limit - 10 )) \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
  grep -E "^    [a-z_]+ " "$O/$name.log" | grep -v thrust | sed -E 's/create [0-9]+ ms, verify [0-9]+ ms//' | cut -c1-330
}
kb lean-0.08 40 --keys 4 --payloads 1 --dists zipf1.0,uniform --log2-groups 22 --methods partition --estimate-scale 0.08
kb generic-0.08-on 30 --keys 4 --payloads 1 --dists zipf1.0 --log2-groups 22 --methods partition --estimate-scale 0.08 \
  --partition-lean off
kb generic-0.08-off 30 --keys 4 --payloads 1 --dists zipf1.0 --log2-groups 22 --methods partition --estimate-scale 0.08 \
  --partition-lean off --partition-overflow-abort off
kb auto-1e-5 40 --keys 4,8 --payloads 1 --dists zipf1.0,uniform --log2-groups 22 --methods auto --estimate-scale 1e-5
kb default 60 --keys 4,8 --payloads 1,4 --dists uniform,zipf1.0 --log2-groups 20:24:2 --methods partition,global_hash
[ -f docs/session39-2026-11-29/call3/kb-flag-1.csv ] &&
  python3 test/kernelbench/ab_table.py docs/session39-2026-11-29/call3/kb-flag-1.csv "$O/default.csv" | grep -E "^\|"
wait $BUILD
for step in ${STEPS:-partition}; do
  [ "$(left)" -gt 170 ] || { echo "pgTAP $step skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$O/$step.log" | tail -6
done
gzip -9 "$O"/*.log
cd "$O" && tar czf s39-call4.tgz ./*.csv ./*.md ./*.log.gz $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.csv ./*.md ./*.log.gz $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 50, call 3 (the session's last device time) at main with mixed words on by default
# (GPUGB_PARTITION_MIXED_KEYS, spec.partition_unmixed_words to turn them off):
# 1. the extension's build in the background, beside the self-test's PARTITION quick set under
#    --partition-cub-sort (case 139 must sort mixed words there);
# 2. what the executor's eager publish costs with and without mixed words: the kernel benchmark's
#    --partition-eager-publish on, 4-byte keys, one payload, 2^18-2^26 groups, mixed words on and off;
# 3. pgTAP and qgen through PostgreSQL with PARTITION forced, then auto, as time allows.
# Before (on the development machine):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s50n; make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s50n
#   tar cJf .gpu-box/bins-s50n.tar.xz test/bin/s50n/kernelbench test/bin/s50n/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session50-2026-11-30/next/call3.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s50n.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 570 .gpu-box/bins-s50n.tar.xz
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j10 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$OUT/ext-build.log" 2>&1
  echo "ext build rc=$? ($(( $(date +%s) - CALL_T0 )) s)" > "$OUT/ext-build.rc" ) &
BUILD=$!
prebuilt_selftest partition-cub s50n 200 --quick --strategy partition --partition-cub-sort
wait $BUILD; cat "$OUT/ext-build.rc"
G="--methods partition --keys 4 --payloads 1 --log2-groups 18:26:2 --dists uniform,zipf1.0"
prebuilt_kb lazy-mixed s50n 40 $G
prebuilt_kb lazy-unmixed s50n 40 $G --partition-mixed-words off
prebuilt_kb eager-mixed s50n 40 $G --partition-eager-publish on
prebuilt_kb eager-unmixed s50n 40 $G --partition-eager-publish on --partition-mixed-words off
ab_ratios lazy-unmixed lazy-mixed
ab_ratios eager-unmixed eager-mixed
ab_ratios lazy-mixed eager-mixed
grep -oE "[0-9]+ of mixed words\)" "$OUT"/*mixed.log | sort | uniq -c | sed 's/^/runs: /'
for s in partition auto; do
  [ "$(call_left)" -gt 120 ] || { echo "pgTAP $s skipped (time: $(call_left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES=$s QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$OUT/$s" \
    timeout -k 5 $(( $(call_left) - 15 )) bash test/gpu-box.sh strategies > "$OUT/pg-$s.log" 2>&1
  echo "pgTAP and qgen $s rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$OUT/pg-$s.log" | tail -10
done
call_pack s50-call3

#!/usr/bin/env bash
# Session 51, call 4: gathered rows on by default (spec.partition_ungathered_values to turn them off), only
# from GPUGB_GATHER_MIN_BITS partition bits, with the row numbers staged a step ahead (partition_deferred.cuh):
# 1. the extension's build in the background, beside the self-test's PARTITION and auto quick sets;
# 2. the kernel benchmark's A/B, --partition-gather off against on (default), 4-byte keys, four payloads,
#    partition and auto, 2^16-2^26, uniform, Zipf 0.5 and 1.0; Nsight Compute's stages at 2^22;
# 3. pgTAP and qgen through PostgreSQL with PARTITION forced, then auto, as time allows.
# Before (on the development machine):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s51h; make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s51h
#   tar cJf .gpu-box/bins-s51h.tar.xz test/bin/s51h/kernelbench test/bin/s51h/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session51-2026-11-30/next/call4.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s51h.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 580 .gpu-box/bins-s51h.tar.xz
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j10 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$OUT/ext-build.log" 2>&1
  echo "ext build rc=$? ($(( $(date +%s) - CALL_T0 )) s)" > "$OUT/ext-build.rc" ) &
BUILD=$!
prebuilt_selftest partition s51h 150 --quick --strategy partition
G="--methods partition,auto --keys 4 --payloads 4 --log2-groups 16:26:2 --dists uniform,zipf0.5,zipf1.0"
prebuilt_kb gather-off s51h 60 $G --partition-gather off
prebuilt_kb gather-on s51h 60 $G
ab_ratios gather-off gather-on
grep -oE "[0-9]+ of them with row numbers\)" "$OUT"/gather-on.log | sort | uniq -c | sed 's/^/runs: /'
ncu_in_order gather22 s51h --methods partition --keys 4 --payloads 4 --log2-groups 22 --dists uniform
prebuilt_selftest auto s51h 60 --quick --strategy auto
wait $BUILD; cat "$OUT/ext-build.rc"
for s in partition auto; do
  [ "$(call_left)" -gt 120 ] || { echo "pgTAP $s skipped (time: $(call_left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES=$s QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$OUT/$s" \
    timeout -k 5 $(( $(call_left) - 15 )) bash test/gpu-box.sh strategies > "$OUT/pg-$s.log" 2>&1
  echo "pgTAP and qgen $s rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$OUT/pg-$s.log" | tail -10
done
call_pack s51-call4

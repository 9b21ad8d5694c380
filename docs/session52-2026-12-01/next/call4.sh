#!/usr/bin/env bash
# Session 52, call 4: PARTITION's tile searches as 32-way warp searches (GPUGB_PARTITION_WARP_SEARCH) and the
# direct flush's stores (GPUGB_DIRECT_FLUSH_STORES), both on in s52n (main's working tree); s52d0 is the code
# before them (c2214bd, call 1's binaries); s52st the stores alone; s52n0 the search alone.
# 1. the extension's build in the background, beside the self-test's PARTITION quick set and direct cases;
# 2. the kernel benchmark's A/B s52d0 -> s52n: partition and auto, 4- and 8-byte keys, one and four payloads,
#    2^22-2^26, uniform, Zipf 0.5 and 1.0; Nsight Compute's stages at 2^26 (4-byte keys, one payload) for the
#    four builds;
# 3. the auto quick set; pgTAP and qgen through PostgreSQL with PARTITION forced, then auto, as time allows.
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 585 .gpu-box/bins-s52.tar.xz .gpu-box/bins-s52n.tar.xz
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j10 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$OUT/ext-build.log" 2>&1
  echo "ext build rc=$? ($(( $(date +%s) - CALL_T0 )) s)" > "$OUT/ext-build.rc" ) &
BUILD=$!
prebuilt_selftest partition s52n 150 --quick --strategy partition
G="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 22:26:2 --dists uniform,zipf0.5,zipf1.0"
prebuilt_kb d0 s52d0 100 $G
prebuilt_kb n s52n 100 $G
ab_ratios d0 n
for b in s52d0 s52st s52n0 s52n; do
  ncu_in_order $b-g26 $b --methods partition --keys 4 --payloads 1 --log2-groups 26 --dists uniform | grep -E "lean|total"
done
prebuilt_selftest auto s52n 60 --quick --strategy auto
wait $BUILD; cat "$OUT/ext-build.rc"
for s in partition auto; do
  [ "$(call_left)" -gt 125 ] || { echo "pgTAP $s skipped (time: $(call_left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES=$s QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$OUT/$s" \
    timeout -k 5 $(( $(call_left) - 12 )) bash test/gpu-box.sh strategies > "$OUT/pg-$s.log" 2>&1
  echo "pgTAP and qgen $s rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$OUT/pg-$s.log" | tail -10
done
call_pack s52-call4

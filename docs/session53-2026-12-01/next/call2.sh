#!/usr/bin/env bash
# Session 53, call 2: the retries' columns allocated and unpacked only where a launch lists retries
# (gpugb_partition_unpack_for_retries, from complete_set), s53a; s53a128 the same with lean tiles of at least
# 131072 rows; against s53t64 (call 1's binary: main before this change, tiles of 65536 as its default now).
# 1. the self-test's PARTITION quick set (its grow+retry cases read the columns unpacked for retries: mixed
#    words, 8-byte packed rows, gathered rows, scattered rows) and the grow+retry cases under
#    --retry-repartition (a PARTITION retry round that leaves its rows packed, unpacked for the next round);
# 2. the kernel benchmark's A/B at the 3x misses' shapes, and the alloc trace at two of them.
#   run(command="bash docs/session53-2026-12-01/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s53.tar.xz", ".gpu-box/bins-s53b.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 585 .gpu-box/bins-s53.tar.xz .gpu-box/bins-s53b.tar.xz
prebuilt_selftest quick s53a 150 --quick --strategy partition
prebuilt_selftest repart s53a 100 --strategy partition --only "grow+retry" --retry-repartition
prebuilt_selftest retry s53a 100 --strategy partition --only "grow+retry"
G="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 22:26:2 --dists uniform,zipf0.5,zipf1.0"
prebuilt_kb base s53t64 100 $G
prebuilt_kb lazy s53a 100 $G
prebuilt_kb t128 s53a128 100 $G
ab_ratios base lazy
ab_ratios lazy t128
for a in "1 zipf1.0 26" "4 uniform 22"; do
  set -- $a
  CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/s53a/kernelbench --bw-gib 1 --reps 1 --max-seconds 50 --md /dev/null \
    --methods partition --keys 4 --payloads $1 --dists $2 --log2-groups $3 --alloc-trace on > "$OUT/alloc-p$1-$2-g$3.log" 2>&1
  echo "== alloc trace (s53a), four-byte keys, $1 payload(s), $2, 2^$3"
  grep -E "alloc trace|partition  " "$OUT/alloc-p$1-$2-g$3.log" | cut -c1-140 | head -12
done
call_pack s53-call2

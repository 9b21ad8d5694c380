#!/usr/bin/env bash
# Written in session 52 for session 53's first call: the experiment GPUGB_LEAN_MIN_TILE_ROWS (cuda/gpugb_device.h,
# cuda/launch.cu), tiles of PARTITION's lean kernel of at least 65536 (s53t64) or 32768 (s53t32) rows, against
# main (s52n: built at 0448d2f, whose GPU code main's default still is). Never run.
# Why: at 2^26 groups a tile is one partition of about 8192 rows, and the three bounds searches of each tile
# held about 9 % of the lean kernel's samples even after the warp search (session 52, call 6).
# Before (on the development machine; session 52 left them built in .gpu-box/bins-s53.tar.xz):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s53t64 KB_DEFINES=-DGPUGB_LEAN_MIN_TILE_ROWS=65536
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s53t32 KB_DEFINES=-DGPUGB_LEAN_MIN_TILE_ROWS=32768
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s53t64 DEVICE_DEFINES=-DGPUGB_LEAN_MIN_TILE_ROWS=65536
#   tar cJf .gpu-box/bins-s53.tar.xz test/bin/s52n/kernelbench test/bin/s53t64/kernelbench \
#     test/bin/s53t64/device_selftest test/bin/s53t32/kernelbench
#   run(command="bash docs/session52-2026-12-01/next/s53-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s53.tar.xz"])
# Afterwards: if a size wins, make it the default (and say why in gpugb_device.h), then run the partition
# quick set and pgTAP (session 52's next/call5.sh); if neither, remove the experiment.
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 560 .gpu-box/bins-s53.tar.xz
prebuilt_selftest quick-t64 s53t64 150 --quick --strategy partition
G="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 22:26:2 --dists uniform,zipf0.5,zipf1.0"
prebuilt_kb base s52n 100 $G
prebuilt_kb t64 s53t64 100 $G
prebuilt_kb t32 s53t32 100 $G
ab_ratios base t64
ab_ratios base t32
for b in s52n s53t32 s53t64; do
  ncu_in_order $b-g26 $b --methods partition --keys 4 --payloads 1 --log2-groups 26 --dists uniform | grep -E "lean|total"
done
# Where the timed part's allocation goes (the log's alloc column: 0.7-2.2 ms a PARTITION run): the first
# rep's device allocations by buffer. The retries' columns (moved_cols, 4-10 GiB at 2^28 rows) are allocated
# whether or not a row retries; if they are most of it, allocating them only for retries is the next change.
for a in "1 zipf1.0 26" "4 uniform 22"; do
  set -- $a
  CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/s52n/kernelbench --bw-gib 1 --reps 1 --max-seconds 50 --md /dev/null \
    --methods partition --keys 4 --payloads $1 --dists $2 --log2-groups $3 --alloc-trace on > "$OUT/alloc-p$1-$2-g$3.log" 2>&1
  echo "== alloc trace, four-byte keys, $1 payload(s), $2, 2^$3"
  grep "alloc trace" "$OUT/alloc-p$1-$2-g$3.log" | head -12
done
call_pack s53-call1

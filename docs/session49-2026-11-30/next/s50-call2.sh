#!/usr/bin/env bash
# Written in session 49 for session 50: the experiment GPUGB_PARTITION_MIXED_KEYS (cuda/gpugb_device.h; written
# after session 49's last GPU call, never run): PARTITION's first launch sorts one 8-byte word a row, an int32 key
# mixed above its one sum, keys only, where the words' top bits are the partitions.
# 1. the self-test's PARTITION quick set with the experiment (s50m), by default and under --partition-cub-sort
#    (every packed launch sorts, so every first launch of one sum and int32 keys takes mixed words);
# 2. kernel benchmark A/B, main (s50) against s50m, partition and auto, 2^18-2^26 groups, 3 reps;
# 3. Nsight Compute in launch order at 2^24, one payload, 4-byte keys (the pack, SortKeys, the lean kernel).
# Before (on the development machine, about 10 minutes; a git worktree for each if cuda/ changes meanwhile):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s50
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s50m KB_DEFINES=-DGPUGB_PARTITION_MIXED_KEYS=1
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s50m DEVICE_DEFINES=-DGPUGB_PARTITION_MIXED_KEYS=1
#   tar cJf .gpu-box/bins-s50m.tar.xz test/bin/s50/kernelbench test/bin/s50m/kernelbench test/bin/s50m/device_selftest
#   git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session49-2026-11-30/next/s50-call2.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins-s50m.tar.xz"], timeout_s=600)
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 575 .gpu-box/bins-s50m.tar.xz
prebuilt_selftest partition s50m 150 --quick --strategy partition
prebuilt_selftest partition-cub s50m 150 --quick --strategy partition --partition-cub-sort
G="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 18:26:2 --dists uniform,zipf1.0"
prebuilt_kb main s50 100 $G
prebuilt_kb mixed s50m 100 $G
ab_ratios main mixed
# Which points took mixed words: only 4-byte keys with one payload where the scatter does not apply (2^18, 2^24,
# 2^26 with 8192 slots), and under auto only where its probe restarted (launches_queued back to 0).
grep -oE "[0-9]+ of mixed words\)" "$OUT/mixed.log" | sort | uniq -c | sed 's/^/runs: /'
ncu_in_order mixed-1p-24 s50m --keys 4 --payloads 1 --dists uniform --methods partition --log2-groups 24
call_pack s50-call2

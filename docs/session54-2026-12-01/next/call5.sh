#!/usr/bin/env bash
# Session 54, call 5: the experiment GPUGB_GID_FROM_GROUPS (src/heuristics.h) again, now in the plan as well as
# at launch, so that the group-id table's global table is L2-sized as its plan has it (s54y, built with 1024;
# call 4 took the word loop at launch only, in the keyed plan's smaller table: 1.40-1.66x at 2^13, 0.14-0.55x at
# 2^8-2^12). s54n: main's GPU code (590a71d).
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s54y KB_DEFINES=-DGPUGB_GID_FROM_GROUPS=1024
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s54y DEVICE_DEFINES=-DGPUGB_GID_FROM_GROUPS=1024
#   tar cJf .gpu-box/bins-s54y.tar.xz test/bin/s54y/kernelbench test/bin/s54y/device_selftest test/bin/s54n/kernelbench
#   run(command="bash docs/session54-2026-12-01/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s54y.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 400 .gpu-box/bins-s54y.tar.xz
G="--methods shared_hash,auto --keys 4,8 --payloads 1 --log2-groups 10:13:1"
prebuilt_kb base s54n 100 $G
prebuilt_kb from s54y 100 $G
ab_ratios base from
prebuilt_selftest y-sh s54y 90 --quick --strategy shared_hash
prebuilt_selftest y-auto s54y 90 --quick --strategy auto
for b in s54n s54y; do
  ncu_in_order $b-sh12 $b --methods shared_hash --keys 4 --payloads 1 --log2-groups 12 --dists uniform | grep -E "gpugb|total"
done
call_pack s54-call5

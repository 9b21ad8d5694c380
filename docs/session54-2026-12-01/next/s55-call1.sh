#!/usr/bin/env bash
# Written in session 54 for session 55's first call. s55: main's device_selftest and kernelbench, built at the last
# commit of code, with what session 54 could not run on the GPU:
#  - the launch takes the group-id table first only where the handle's plan chose it and its table is as large as
#    that plan sized it (GpugbAggParams.lean_gid_first; a review found the launch re-deriving the rule, so a sum
#    not declared int32 or NULLs expected took it in the keyed plan's small global table, measured at 0.43-0.55x);
#  - the self-test's cases 138 (now must not take it), 151 (int32 keys at 4000 groups) and 152 (its check mended);
#  - the experiment GPUGB_GID_DEFER_CARRY (cuda/gpugb_device.h; s55d built with 1): the word loop's carry into the
#    sum's high word worked out at the lane's next row, so the warp does not wait for the low word's atomic add
#    (20 % of the word loop's stall samples at 2^14 sat on that wait, session 54 call 4). Never run.
#  - the experiment GPUGB_GID_PAIR_HOME (s55p built with 1): 8-byte keys' pair slots read their home pair a step
#    ahead, as int32 keys' keyed slots read their home word (which gave 1.12x at 2^14). Never run.
# Before (on the development machine):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s55
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s55
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s55d KB_DEFINES=-DGPUGB_GID_DEFER_CARRY=1
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s55d DEVICE_DEFINES=-DGPUGB_GID_DEFER_CARRY=1
#   tar cJf .gpu-box/bins-s55.tar.xz test/bin/s55/kernelbench test/bin/s55/device_selftest
#   tar cJf .gpu-box/bins-s55d.tar.xz test/bin/s55d/kernelbench test/bin/s55d/device_selftest
#   (the same for s55p with -DGPUGB_GID_PAIR_HOME=1)
#   run(command="bash docs/session54-2026-12-01/next/s55-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s55.tar.xz", ".gpu-box/bins-s55d.tar.xz", ".gpu-box/bins-s55p.tar.xz"])
# Afterwards: pgTAP with shared_hash forced and with auto (a call with the debs: session 54's next/call3.sh's steps).
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 590 .gpu-box/bins-s55.tar.xz .gpu-box/bins-s55d.tar.xz .gpu-box/bins-s55p.tar.xz
prebuilt_selftest gid-sh s55 45 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto s55 45 --strategy auto --only "lean gid"
prebuilt_selftest deferred-sh s55 45 --strategy shared_hash --only "lean deferred"
prebuilt_selftest gid-sh-d s55d 45 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto-d s55d 45 --strategy auto --only "lean gid"
prebuilt_selftest gid-sh-p s55p 45 --strategy shared_hash --only "lean gid"
# The word loop first must still run where auto plans it (2^12; session 54's grid: 1.83-2.21 ms with one payload),
# and the experiment's A/B.
G="--methods shared_hash,auto --keys 4,8 --payloads 1 --log2-groups 10:14:1"
prebuilt_kb grid s55 60 $G
prebuilt_kb defer s55d 60 $G
prebuilt_kb pairhome s55p 60 $G
ab_ratios grid defer
ab_ratios grid pairhome
for b in s55 s55d; do
  ncu_in_order $b-sh14 $b --methods shared_hash --keys 4 --payloads 1 --log2-groups 14 --dists uniform | grep -E "gpugb|total"
done
for b in s55 s55p; do
  ncu_in_order $b-sh14k8 $b --methods shared_hash --keys 8 --payloads 1 --log2-groups 14 --dists uniform | grep -E "gpugb|total"
done
prebuilt_selftest whole s55 $(( $(call_left) - 10 ))
call_pack s55-call1

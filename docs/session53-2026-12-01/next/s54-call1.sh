#!/usr/bin/env bash
# Written in session 53 for session 54's first call: the experiment GPUGB_GID_AHEAD (cuda/gpugb_device.h,
# cuda/lean_gid_kernel.cuh), SHARED_HASH's group-id table loading each row's key word and inputs a step ahead
# and looking its id up by the word (s54g: 1), and also its home slot's word a step ahead, for keyed slots and
# one sum (s54g2: 2); s54b: main. Never run.
# Why: at 2^14 groups the kernel's stall samples sat 40 % on the key's and the value's loads, each used a few
# instructions after it was issued, and 11 % on the global slot's (session 53, calls 5 and 6).
# Before (on the development machine; session 53 left them built in .gpu-box/bins-s54.tar.xz):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s54b
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s54g KB_DEFINES=-DGPUGB_GID_AHEAD=1
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s54g DEVICE_DEFINES=-DGPUGB_GID_AHEAD=1
#   (the same for s54g2 with =2)
#   tar cJf .gpu-box/bins-s54.tar.xz test/bin/s54b/kernelbench test/bin/s54g/kernelbench \
#     test/bin/s54g/device_selftest test/bin/s54g2/kernelbench test/bin/s54g2/device_selftest
#   run(command="bash docs/session53-2026-12-01/next/s54-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s54.tar.xz"])
# Afterwards: if one wins, make it the default (the old row path stays for several key words and NULL keys),
# then the whole self-test, pgTAP with auto (SHARED_HASH is auto's plan at 2^11-2^14) and the grid at
# 2^10-2^16 (pending/next-steps.md).
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 560 .gpu-box/bins-s54.tar.xz
# The group-id table's cases: SHARED_HASH forced and auto (which plans it at 2^11-2^14 groups).
prebuilt_selftest quick-sh s54g 120 --quick --strategy shared_hash
# The group-id table's cases at full size, 143-145 among them (no NULL keys: the experiment's instances; never
# run before, in any build).
prebuilt_selftest gid-sh s54g 60 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto s54g 60 --strategy auto --only "lean gid"
prebuilt_selftest quick-sh2 s54g2 120 --quick --strategy shared_hash
prebuilt_selftest gid-sh2 s54g2 60 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto2 s54g2 60 --strategy auto --only "lean gid"
# Level 2 differs from level 1 only at 4-byte keys with one payload (keyed slots, one sum): elsewhere ~1.0x.
G="--methods shared_hash,auto --keys 4,8 --payloads 1,4 --log2-groups 12:14:2 --dists uniform,zipf0.5,zipf1.0,zipf1.5"
prebuilt_kb base s54b 100 $G
prebuilt_kb ahead s54g 100 $G
prebuilt_kb home s54g2 100 $G
ab_ratios base ahead
ab_ratios base home
for b in s54b s54g s54g2; do
  ncu_in_order $b-sh14 $b --methods shared_hash --keys 4 --payloads 1 --log2-groups 14 --dists uniform | grep -E "gpugb|total"
done
call_pack s54-call1

#!/usr/bin/env bash
# Session 57, call 2: the ranges capped (at most 4 ranges and 8 launches) and the split once a sum with its
# range a constant again (s57r2) against main before the ranges (s57m). The `lean gid ranges` and
# `lean gid split` cases with SHARED_HASH forced and with auto, the quick SHARED_HASH set; SHARED_HASH and
# auto at 2^14-2^17 (the grid's points to merge), and four payloads at 2^14 in both builds, each order once
# (call 1 measured the split once a sum 0.92x there with its range a kernel parameter); then the partition
# self-test, whose tail session 56 did not reach.
#   run(command="bash docs/session57-2026-12-02/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s57m.tar.xz", ".gpu-box/bins-s57r2.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 570 .gpu-box/bins-s57m.tar.xz .gpu-box/bins-s57r2.tar.xz
prebuilt_selftest ranges-sh s57r2 50 --only "lean gid ranges" --strategy shared_hash
prebuilt_selftest ranges-auto s57r2 50 --only "lean gid ranges" --strategy auto
prebuilt_selftest split-sh s57r2 50 --only "lean gid split" --strategy shared_hash
prebuilt_selftest quick-sh s57r2 50 --quick --strategy shared_hash
C="--methods shared_hash,auto --keys 4,8 --payloads 4 --log2-groups 14"
prebuilt_kb c-old s57m 25 $C
prebuilt_kb c-new s57r2 25 $C
prebuilt_kb c-new2 s57r2 25 $C
prebuilt_kb c-old2 s57m 25 $C
ab_ratios c-old c-new
ab_ratios c-old2 c-new2
prebuilt_kb grid s57r2 130 --methods shared_hash,auto --keys 4,8 --payloads 1,4 --log2-groups 14:17:1
grep -E "^\| (auto|best)" "$OUT/grid.md"
left=$(( $(call_left) - 15 ))
[ "$left" -gt 60 ] && prebuilt_selftest part s57r2 "$left" --strategy partition
call_pack s57-call2

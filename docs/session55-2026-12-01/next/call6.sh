#!/usr/bin/env bash
# Session 55, call 6: main with the L1 reserve as the default (s55m: GPUGB_GID_L1_RESERVE_BYTES 32768, the
# group-id table's launch slots from gpugb_lean_gid_launch_slots on both of its paths):
#  - the self-test's "lean gid" set and the quick sets, auto and shared_hash;
#  - the grid's shared_hash and auto points at 2^10-2^16, both key widths, one and four payloads, four
#    distributions, 3 reps, to merge into session 54's grid-full.csv.
#   run(command="bash docs/session55-2026-12-01/next/call6.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s55m.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 300 .gpu-box/bins-s55m.tar.xz
prebuilt_selftest gid-sh s55m 45 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto s55m 45 --strategy auto --only "lean gid"
prebuilt_kb grid-s55m s55m 90 --methods shared_hash,auto --keys 4,8 --payloads 1,4 --log2-groups 10:16:2
prebuilt_selftest quick-auto s55m 80 --quick --strategy auto
prebuilt_selftest quick-sh s55m 80 --quick --strategy shared_hash
call_pack s55-call6

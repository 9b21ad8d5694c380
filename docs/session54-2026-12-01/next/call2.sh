#!/usr/bin/env bash
# Session 54, call 2: the group-id table's word loop as the default (cuda/lean_gid_kernel.cuh,
# gpugb_lean_gid_rows_ahead; launch.cu, lean_gid_by_word: one key word without NULLs, one sum), and a very hot
# group no longer keeping auto from it there (src/heuristics.c, gpugb_lean_gid_pays' word_key). s54n: the
# working tree; s54b: main before (7be7da7's kernelbench, from call 1's tarball).
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s54n
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s54n
#   tar cJf .gpu-box/bins-s54n.tar.xz test/bin/s54n/kernelbench test/bin/s54n/device_selftest test/bin/s54b/kernelbench
#   run(command="bash docs/session54-2026-12-01/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s54n.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 590 .gpu-box/bins-s54n.tar.xz
# The group-id table's cases, 146 and 147 new (Zipf 1.5 without NULL keys: auto must take the word loop).
prebuilt_selftest gid-sh s54n 60 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto s54n 60 --strategy auto --only "lean gid"
# The grid's points that the change can move (shared_hash, auto at 2^10-2^16), to merge into the grid.
prebuilt_kb grid s54n 150 --methods shared_hash,auto --keys 4,8 --payloads 1,4 --log2-groups 10:16:2
# Skew beyond what the grid has: the largest group 38 % (Zipf 1.5), 61 % (2.0), 83 % (3.0) at 2^14 groups, one
# payload. Before, auto kept the partial keyed table for these; now it takes the word loop.
S="--methods shared_hash,auto --keys 4,8 --payloads 1 --log2-groups 14 --dists zipf1.5,zipf2.0,zipf3.0"
prebuilt_kb skew-b s54b 60 $S
prebuilt_kb skew-n s54n 60 $S
ab_ratios skew-b skew-n
prebuilt_selftest whole s54n $(( $(call_left) - 10 ))
call_pack s54-call2

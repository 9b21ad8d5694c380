#!/usr/bin/env bash
# Written in session 54 for session 55's first call. s55: main's device_selftest and kernelbench, built at the last
# commit of code, with what session 54 could not run on the GPU:
#  - the launch takes the group-id table first only where the handle's plan chose it and its table is as large as
#    that plan sized it (GpugbAggParams.lean_gid_first; a review found the launch re-deriving the rule, so a sum
#    not declared int32 or NULLs expected took it in the keyed plan's small global table, measured at 0.43-0.55x);
#  - the self-test's cases 138 (now must not take it), 151 (int32 keys at 4000 groups) and 152 (its check mended).
# Before (on the development machine):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s55
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s55
#   tar cJf .gpu-box/bins-s55.tar.xz test/bin/s55/kernelbench test/bin/s55/device_selftest
#   run(command="bash docs/session54-2026-12-01/next/s55-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s55.tar.xz"])
# Afterwards: pgTAP with shared_hash forced and with auto (a call with the debs: session 54's next/call3.sh's steps).
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 590 .gpu-box/bins-s55.tar.xz
prebuilt_selftest gid-sh s55 45 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto s55 45 --strategy auto --only "lean gid"
prebuilt_selftest deferred-sh s55 45 --strategy shared_hash --only "lean deferred"
# The word loop first must still run where auto plans it (2^12; session 54's grid: 1.83-2.21 ms with one payload).
prebuilt_kb grid s55 60 --methods shared_hash,auto --keys 4,8 --payloads 1 --log2-groups 10:14:1
prebuilt_selftest whole s55 $(( $(call_left) - 10 ))
call_pack s55-call1

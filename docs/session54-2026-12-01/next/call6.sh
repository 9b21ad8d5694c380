#!/usr/bin/env bash
# Session 54, call 6: main with the group-id table first from 2048 groups (one sum looked up by key word, no
# group of 5 % of the rows: src/heuristics.c gpugb_lean_gid_first, in the plan and at launch) and the review's
# fixes (s54f, the working tree before its commit). The self-test sets the change touches, cases 148-152 new; the
# grid's shared_hash and auto points at 2^10-2^14 to merge; then the extension built on the box and pgTAP and qgen
# with auto, as far as the device time left allows.
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s54f
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s54f
#   tar cJf .gpu-box/bins-s54f.tar.xz test/bin/s54f/kernelbench test/bin/s54f/device_selftest
#   run(command="bash docs/session54-2026-12-01/next/call6.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s54f.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 330 .gpu-box/bins-s54f.tar.xz
ext_build_start
prebuilt_selftest gid-sh s54f 45 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto s54f 45 --strategy auto --only "lean gid"
prebuilt_selftest quick-sh s54f 60 --quick --strategy shared_hash
prebuilt_selftest quick-auto s54f 60 --quick --strategy auto
prebuilt_kb grid s54f 60 --methods shared_hash,auto --keys 4,8 --payloads 1,4 --log2-groups 10:14:2
ext_build_wait
pgtap_strategies auto
call_pack s54-call6

#!/usr/bin/env bash
# Session 54, call 3: main at 590a71d (the group-id table's word loop, the hot-group rule, case 100 reshaped)
# through PostgreSQL: the extension built on the box, pgTAP and 150 qgen queries with auto (which plans
# SHARED_HASH's group-id table at 2^13-2^14 groups) and SHARED_HASH forced; while it builds, the reshaped case
# 100 (its refused move) and the auto and shared_hash sets of the self-test (s54v: built from 590a71d).
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s54v
#   tar cJf .gpu-box/bins-s54v.tar.xz test/bin/s54v/device_selftest
#   run(command="bash docs/session54-2026-12-01/next/call3.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s54v.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 590 .gpu-box/bins-s54v.tar.xz
ext_build_start
prebuilt_selftest refused s54v 60 --strategy partition --only "refused under a memory limit"
prebuilt_selftest gid-auto s54v 60 --strategy auto --only "lean gid"
prebuilt_selftest quick-auto s54v 90 --quick --strategy auto
prebuilt_selftest quick-sh s54v 90 --quick --strategy shared_hash
ext_build_wait
pgtap_strategies auto shared_hash
call_pack s54-call3

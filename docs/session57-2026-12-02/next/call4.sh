#!/usr/bin/env bash
# Session 57, call 4: the whole device self-test with SHARED_HASH forced and with auto, alone (call 3 ran them
# beside pgTAP and stopped them at 170 s: 141 and 143 cases, none failed), at s57r2 (58f042d's code).
#   run(command="bash docs/session57-2026-12-02/next/call4.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s57r2.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 400 .gpu-box/bins-s57r2.tar.xz
prebuilt_selftest whole-sh s57r2 190 --strategy shared_hash
prebuilt_selftest whole-auto s57r2 $(( $(call_left) - 10 )) --strategy auto
call_pack s57-call4

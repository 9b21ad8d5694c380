#!/usr/bin/env bash
# Session 55, call 2: main's final GPU code (s55, built at b67dbd9) through everything not run since 352a654:
# the whole self-test (its last full run was session 54's call 2, at 590a71d: 790 cases, 1 failed, case 100,
# reshaped since) while the extension builds on the CPU, then pgTAP and 150 qgen queries with SHARED_HASH forced
# (last run at 590a71d) and, if time is left, auto.
#   run(command="bash docs/session55-2026-12-01/next/call2.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s55.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 590 .gpu-box/bins-s55.tar.xz
ext_build_start
prebuilt_selftest whole s55 420
ext_build_wait
pgtap_strategies shared_hash auto
call_pack s55-call2

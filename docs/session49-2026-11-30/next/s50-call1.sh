#!/usr/bin/env bash
# Written in session 49 for session 50's first call: the whole device self-test at main, alone (it did not finish
# in 240 s or 283 s in session 49: 380 cases, none failed), with test/lib/gpu-box-steps.sh's steps.
# Before (on the development machine, about 3 minutes):
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s50
#   tar cJf .gpu-box/bins-s50.tar.xz test/bin/s50/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session49-2026-11-30/next/s50-call1.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins-s50.tar.xz"], timeout_s=600)
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 575 .gpu-box/bins-s50.tar.xz
prebuilt_selftest all s50 555
call_pack s50-call1

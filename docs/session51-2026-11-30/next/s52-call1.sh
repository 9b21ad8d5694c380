#!/usr/bin/env bash
# Written in session 51 for session 52's first call: GPUGB_GATHER_AHEAD_STEPS (cuda/gpugb_device.h), the lean
# kernel fetching gathered rows 1 or 2 steps ahead across the chunks of a stretch (GpugbGatherPipe,
# cuda/partition_deferred.cuh), against the default 0 (each chunk of two 1024-row steps starts its loads
# after the last chunk's barrier). Never run; the default's PTX is byte-identical to the code session 51 ran.
# With gathered rows, four payloads at 2^22 took pack 4.57 + CUB 5.0 + lean kernel 13.2 ms; the gather alone
# is about 8 ms and the lean kernel's own work was 5.78, so the two barely overlap.
# ptxas (four sums): 62 registers and no spills at 1; 64 and 24 bytes of spills at 2 (3: 80 bytes, not built).
# Before (on the development machine; session 51 left them built at its last commit in .gpu-box, see
# pending/next-steps.md):
#   for d in 0 1 2; do make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s52d$d KB_DEFINES=-DGPUGB_GATHER_AHEAD_STEPS=$d
#     make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s52d$d DEVICE_DEFINES=-DGPUGB_GATHER_AHEAD_STEPS=$d; done
#   tar cJf .gpu-box/bins-s52.tar.xz test/bin/s52d*/kernelbench test/bin/s52d*/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session51-2026-11-30/next/s52-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s52.tar.xz"])
# Afterwards: if 1 or 2 wins, make it the default (gpugb_device.h), rerun the partition quick set and pgTAP.
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 560 .gpu-box/bins-s52.tar.xz
for d in 1 2; do
  prebuilt_selftest direct-d$d s52d$d 90 --strategy partition --only "partition direct"
done
G="--methods partition,auto --keys 4 --payloads 4 --log2-groups 20:26:2 --dists uniform,zipf0.5,zipf1.0"
for d in 0 1 2; do prebuilt_kb d$d s52d$d 60 $G; done
ab_ratios d0 d1
ab_ratios d0 d2
for d in 0 1 2; do
  ncu_in_order d$d s52d$d --methods partition --keys 4 --payloads 4 --log2-groups 22 --dists uniform
done
[ "$(call_left)" -gt 130 ] && prebuilt_selftest quick-d1 s52d1 $(( $(call_left) - 15 )) --quick --strategy partition
call_pack s52-call1

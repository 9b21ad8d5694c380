#!/usr/bin/env bash
# Session 53, call 3: the experiment GPUGB_GATHER_SORTED_VALUES (cuda/gpugb_device.h): gathered rows' values put
# in sorted order by a kernel of their own (gpugb_move_gather_values_kernel) after CUB's sort, so that the lean
# kernel reads them in order. s53g: on (kernelbench; the self-test also with GPUGB_GATHER_MIN_BITS=1, so that more
# of its cases gather); s53a: main (call 2's binaries).
#   run(command="bash docs/session53-2026-12-01/next/call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s53b.tar.xz", ".gpu-box/bins-s53g.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 400 .gpu-box/bins-s53b.tar.xz .gpu-box/bins-s53g.tar.xz
prebuilt_selftest quick-g s53g 150 --quick --strategy partition
G="--methods partition,auto --keys 4 --payloads 2,4 --log2-groups 20:26:2 --dists uniform,zipf0.5,zipf1.0"
prebuilt_kb base s53a 80 $G
prebuilt_kb g s53g 80 $G
ab_ratios base g
for b in s53a s53g; do
  ncu_in_order $b-p4g22 $b --methods partition --keys 4 --payloads 4 --log2-groups 22 --dists uniform | tail -8
done
call_pack s53-call3

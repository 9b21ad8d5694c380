#!/usr/bin/env bash
# Session 55, call 3 (kernel benchmark only; s55: main at b67dbd9, s55d: GPUGB_GID_DEFER_CARRY=1, s55p:
# GPUGB_GID_PAIR_HOME=1, as call 1):
#  - call 1 found auto 1.24-1.33x slower than forced SHARED_HASH at 2^13 groups, Zipf 1.0 and 1.5: the 5 % gate of
#    gpugb_lean_gid_first keeps auto on the keyed tables there, while a forced SHARED_HASH (which sees no hot share)
#    takes the group-id table first. Both, at 2^12-2^14 and Zipf 1.0-3.0, to place a groups threshold above which
#    the gate may go;
#  - the experiments' A/Bs again, the experiment first this time (call 1: DEFER_CARRY 1.00-1.07x at 2^13-2^14,
#    PAIR_HOME 0.94-1.13x with 8-byte keys).
#   run(command="bash docs/session55-2026-12-01/next/call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s55.tar.xz", ".gpu-box/bins-s55d.tar.xz", ".gpu-box/bins-s55p.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 300 .gpu-box/bins-s55.tar.xz .gpu-box/bins-s55d.tar.xz .gpu-box/bins-s55p.tar.xz
prebuilt_kb hot s55 60 --methods shared_hash,auto --keys 4,8 --payloads 1 --log2-groups 12:14:1 \
  --dists zipf0.75,zipf1.0,zipf1.25,zipf1.5,zipf2.0,zipf3.0
G="--methods shared_hash --keys 4,8 --payloads 1 --log2-groups 11:14:1 --dists uniform,zipf0.5,zipf1.0,zipf1.5"
prebuilt_kb defer2 s55d 60 $G
prebuilt_kb pairhome2 s55p 60 $G
prebuilt_kb grid2 s55 60 $G
ab_ratios grid2 defer2
ab_ratios grid2 pairhome2
call_pack s55-call3

#!/usr/bin/env bash
# Session 59, call 6: auto takes PARTITION for one int32 sum without skew from 1.5 x L2 (s59u: call 5 saw auto keep
# GLOBAL_HASH at 2^21 groups, one payload, uniform: 19.6 ms against PARTITION's 9.0). Forced GLOBAL_HASH and
# PARTITION against auto, both key widths, one payload, uniform and Zipf 0.5, 2^20-2^22, every power.
#   run(command="bash docs/session59-2026-12-02/next/call6.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s59u.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 120 .gpu-box/bins-s59u.tar.xz
prebuilt_kb one-sum s59u 90 --methods global_hash,partition,auto --keys 4,8 --payloads 1 --dists uniform,zipf0.5 --log2-groups 20:22:1
awk -F, 'NR > 1 { print $1, $3, $4, $7, $8, $12 }' "$OUT/one-sum.csv"
call_pack s59-call6

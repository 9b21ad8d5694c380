#!/usr/bin/env bash
# Session 55, call 5: the experiment GPUGB_GID_L1_RESERVE_BYTES=32768 (s55t) against main (s55k, 0930e53 with the
# kernel benchmark's key-word label). Call 4 found auto's group-id launch at 2^13 groups taking all 19370 slots
# (232,440 bytes of shared memory, about 28 KB left to L1) at 3.01 ms where a forced SHARED_HASH took 16384
# slots (196,608 bytes) at 2.58-2.60, with the same instructions, atomics and L2 sectors. The experiment takes
# at most twice the groups expected, and no more than leave 32 KB to L1 where the groups fit so (16640 slots of one
# sum on the H200): at 2^14 16640 instead of 19370.
# Two rounds, each order once; one and four payloads (four sums: 5546 slots instead of 6456 at 2^12), 2^11-2^14.
#   run(command="bash docs/session55-2026-12-01/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s55k.tar.xz", ".gpu-box/bins-s55t.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 300 .gpu-box/bins-s55k.tar.xz .gpu-box/bins-s55t.tar.xz
G="--methods shared_hash,auto --keys 4,8 --payloads 1,4 --log2-groups 11:14:1"
prebuilt_kb main1 s55k 60 $G
prebuilt_kb l1a s55t 60 $G
prebuilt_kb l1b s55t 60 $G
prebuilt_kb main2 s55k 60 $G
ab_ratios main1 l1a
ab_ratios main2 l1b
grep -E "payload|shared_hash |auto " "$OUT/l1a.log" | grep -E "g=2\^1[34]|shared_hash |auto " | cut -c1-200 | head -70
call_pack s55-call5

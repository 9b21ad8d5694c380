#!/usr/bin/env bash
# Session 59, call 5: call 4 saw auto at 4-byte keys, four payloads, Zipf 1.0, 2^21 (2,097,109 groups) take 30.1 ms
# where forced PARTITION took 19.8 (1 switch at 266,575 groups seen; no direct numbering, no mixed keys after it).
# Whether the reserve's rule did it: the same point with the reserve off and by rule, and one payload (which never
# takes the reserve) beside it, in s59t.
#   run(command="bash docs/session59-2026-12-02/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s59t.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 150 .gpu-box/bins-s59t.tar.xz
P="--methods partition,auto --keys 4 --payloads 1,4 --dists zipf1.0,uniform --log2-groups 21"
prebuilt_kb a21-off s59t 50 $P --partition-l1-reserve off
prebuilt_kb a21-rule s59t 50 $P
ab_ratios a21-off a21-rule
grep -hE "^ +auto " "$OUT/a21-off.log" "$OUT/a21-rule.log" | cut -c1-330
call_pack s59-call5

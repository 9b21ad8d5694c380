#!/usr/bin/env bash
# Session 59, call 1: session 58's call 1 again (its results were lost with its session: it ended before they
# were committed), at 2f81c76's code (s59r), without the self-tests (call 2 runs them). The A/B in one binary:
# --partition-l1-reserve off against on, 4-byte keys, two to four payloads, 2^22-2^26 (which sums the rule
# should take); the rule over the grid's partition points (2^20-2^26, both key widths, one and four payloads,
# every dist) for the targets; Nsight Compute in launch order at 4-byte keys, four payloads, 2^22, off and on.
# Then the quick PARTITION self-test with the reserve always taken, alone (call 2 ran it beside pgTAP and stopped
# it at 150 s, 180 cases ok, none failed).
#   run(command="bash docs/session59-2026-12-02/next/call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s59r.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 590 .gpu-box/bins-s59r.tar.xz
AB="--methods partition,auto --keys 4 --payloads 2,3,4 --dists uniform,zipf1.0 --log2-groups 22:26:2"
prebuilt_kb ab-off s59r 60 $AB --partition-l1-reserve off
prebuilt_kb ab-on s59r 60 $AB --partition-l1-reserve on
ab_ratios ab-off ab-on
prebuilt_kb rule s59r 110 --methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 20:26:2
grep -E "left L1" "$OUT/rule.log" | cut -c1-200 | head -12
P1="--methods partition --keys 4 --payloads 4 --dists uniform --log2-groups 22"
ncu_in_order p4g22-off s59r $P1 --partition-l1-reserve off
ncu_in_order p4g22-on s59r $P1 --partition-l1-reserve on
prebuilt_selftest quick-part-l1 s59r $(( $(call_left) - 10 )) --quick --strategy partition --partition-l1-reserve
call_pack s59-call1

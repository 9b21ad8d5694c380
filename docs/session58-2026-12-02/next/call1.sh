#!/usr/bin/env bash
# Session 58, call 1: PARTITION's L1 reserve as a rule (s58r). The A/B in one binary: --partition-l1-reserve
# off against on, 4-byte keys, two to four payloads, 2^22-2^26 (which sums the rule should take); the rule
# over the grid's partition points (2^20-2^26, both key widths, one and four payloads, every dist) for the
# targets; Nsight Compute in launch order at 4-byte keys, four payloads, 2^22 off and on (why L1 pays), and at
# the one-payload misses (8-byte keys 2^24, 4-byte keys 2^26); the quick PARTITION self-test with the
# reserve always on; the whole self-test with auto (session 57 stopped it at 135 cases).
#   run(command="bash docs/session58-2026-12-02/next/call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s58r.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 575 .gpu-box/bins-s58r.tar.xz
AB="--methods partition,auto --keys 4 --payloads 2,3,4 --dists uniform,zipf1.0 --log2-groups 22:26:2"
prebuilt_kb ab-off s58r 60 $AB --partition-l1-reserve off
prebuilt_kb ab-on s58r 60 $AB --partition-l1-reserve on
ab_ratios ab-off ab-on
prebuilt_kb rule s58r 110 --methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 20:26:2
grep -E "left L1" "$OUT/rule.log" | cut -c1-200 | head -12
P1="--methods partition --keys 4 --payloads 4 --dists uniform --log2-groups 22"
ncu_in_order p4g22-off s58r $P1 --partition-l1-reserve off
ncu_in_order p4g22-on s58r $P1 --partition-l1-reserve on
ncu_in_order k8p1g24 s58r --methods partition --keys 8 --payloads 1 --dists uniform --log2-groups 24
ncu_in_order k4p1g26 s58r --methods partition --keys 4 --payloads 1 --dists uniform --log2-groups 26
prebuilt_selftest quick-part-l1 s58r 60 --quick --strategy partition --partition-l1-reserve
prebuilt_selftest whole-auto s58r $(( $(call_left) - 12 )) --strategy auto
call_pack s58-call1

#!/usr/bin/env bash
# Session 59, call 3: where PARTITION's L1 reserve starts to pay. Call 1's rule left Zipf 1.0 at 2^22 without the
# reserve (its draw holds 4,181,415 keys, under the rule's 2^22) though the reserve made it 1.23x faster there.
# The A/B below 2^22 (2^20, where session 56 saw 0.62-0.66x, and 2^21), 4-byte keys, four payloads, every dist,
# in s59r (2f81c76's code: --partition-l1-reserve off against on).
#   run(command="bash docs/session59-2026-12-02/next/call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s59r.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 300 .gpu-box/bins-s59r.tar.xz
AB="--methods partition --keys 4 --payloads 4 --log2-groups 20:22"
prebuilt_kb low-off s59r 60 $AB --partition-l1-reserve off
prebuilt_kb low-on s59r 60 $AB --partition-l1-reserve on
ab_ratios low-off low-on
prebuilt_kb low-off2 s59r 60 $AB --partition-l1-reserve off
ab_ratios low-off2 low-on
call_pack s59-call3

#!/usr/bin/env bash
# Session 55, call 1: session 54's next/s55-call1.sh without the whole self-test (it moves to call 2, beside the
# extension's build, so that it has the time it needs). Main at b67dbd9 (s55), the experiments
# GPUGB_GID_DEFER_CARRY=1 (s55d) and GPUGB_GID_PAIR_HOME=1 (s55p):
#  - the self-test's "lean gid" set (cases 138, 151, 152 as they now stand; the plan-carried lean_gid_first)
#    under shared_hash and auto, and under each experiment; the "lean deferred" set;
#  - the kernel benchmark's A/B of each experiment against main, shared_hash and auto, 4- and 8-byte keys,
#    one payload, 2^10-2^14 groups, every distribution;
#  - Nsight Compute's kernel times at 2^14 (uniform), main against each experiment.
#   run(command="bash docs/session55-2026-12-01/next/call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s55.tar.xz", ".gpu-box/bins-s55d.tar.xz", ".gpu-box/bins-s55p.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 480 .gpu-box/bins-s55.tar.xz .gpu-box/bins-s55d.tar.xz .gpu-box/bins-s55p.tar.xz
prebuilt_selftest gid-sh s55 45 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto s55 45 --strategy auto --only "lean gid"
prebuilt_selftest deferred-sh s55 45 --strategy shared_hash --only "lean deferred"
prebuilt_selftest gid-sh-d s55d 45 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto-d s55d 45 --strategy auto --only "lean gid"
prebuilt_selftest gid-sh-p s55p 45 --strategy shared_hash --only "lean gid"
prebuilt_selftest gid-auto-p s55p 45 --strategy auto --only "lean gid"
G="--methods shared_hash,auto --keys 4,8 --payloads 1 --log2-groups 10:14:1"
prebuilt_kb grid s55 60 $G
prebuilt_kb defer s55d 60 $G
prebuilt_kb pairhome s55p 60 $G
ab_ratios grid defer
ab_ratios grid pairhome
for b in s55 s55d; do
  ncu_in_order $b-sh14 $b --methods shared_hash --keys 4 --payloads 1 --log2-groups 14 --dists uniform | grep -E "gpugb|total"
done
for b in s55 s55p; do
  ncu_in_order $b-sh14k8 $b --methods shared_hash --keys 8 --payloads 1 --log2-groups 14 --dists uniform | grep -E "gpugb|total"
done
call_pack s55-call1

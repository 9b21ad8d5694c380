#!/usr/bin/env bash
# Session 60, call 4: hashed rows (GPUGB_HASHED_KEY_WORDS, cuda/hashed_rows.cuh) on the H200 (the self-test
# runs in call 5, which builds it on the box): the kernel benchmark, every result verified against Thrust, --partition-hashed off against on, 8-byte keys, one and four
# payloads, every distribution, 2^14-2^26 even, and on with --partition-scatter off; then Nsight Compute of the on run at 2^24 (one, four payloads).
#   run(command="bash docs/session60-2026-12-02/next/call4.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s60h.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 300 .gpu-box/bins-s60h.tar.xz
P="--methods partition,auto --keys 8 --payloads 1,4 --log2-groups 14:26:2"
prebuilt_kb hashed-off s60h 60 $P --partition-hashed off
prebuilt_kb hashed-on s60h 60 $P
ab_ratios hashed-off hashed-on
# Where rows scatter (one pass), would hashed pairs through CUB do better? (time(on)/time(noscatter))
prebuilt_kb hashed-noscatter s60h 60 $P --partition-scatter off
ab_ratios hashed-on hashed-noscatter
ncu_in_order p1-2e24 s60h --methods partition --keys 8 --payloads 1 --dists uniform --log2-groups 24
ncu_in_order p4-2e24 s60h --methods partition --keys 8 --payloads 4 --dists uniform --log2-groups 24
call_pack s60-call4

#!/usr/bin/env bash
# Session 51, call 3: the experiment spec.partition_gathered_values (GPUGB_GATHERED_KEY_WORDS,
# cuda/gpugb_device.h, off by default): PARTITION's direct first launch of an int32 key and two to four
# sums sorts (mixed key, row number) pairs and the lean kernel reads the values through the row numbers.
# 1. the self-test's PARTITION quick set under --partition-gather (case 141: the direct launch of four
#    sums, with failed slots' rows found again and retries through the gathered unpack), and the direct
#    cases without it;
# 2. the kernel benchmark's A/B: 4-byte keys, four payloads, partition and auto, 2^16-2^26, uniform,
#    Zipf 0.5 and 1.0, --partition-gather off against on;
# 3. Nsight Compute's stages at 2^22 (uniform) with it on.
# Before (on the development machine):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s51g; make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s51g
#   tar cJf .gpu-box/bins-s51g.tar.xz test/bin/s51g/kernelbench test/bin/s51g/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session51-2026-11-30/next/call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s51g.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 560 .gpu-box/bins-s51g.tar.xz
prebuilt_selftest gather-direct s51g 90 --strategy partition --only "partition direct" --partition-gather
prebuilt_selftest direct s51g 90 --strategy partition --only "partition direct"
G="--methods partition,auto --keys 4 --payloads 4 --log2-groups 16:26:2 --dists uniform,zipf0.5,zipf1.0"
prebuilt_kb gather-off s51g 100 $G
prebuilt_kb gather-on s51g 100 $G --partition-gather on
ab_ratios gather-off gather-on
grep -oE "[0-9]+ of them with row numbers\)" "$OUT"/gather-on.log | sort | uniq -c | sed 's/^/runs: /'
ncu_in_order gather22 s51g --methods partition --keys 4 --payloads 4 --log2-groups 22 --dists uniform --partition-gather on
[ "$(call_left)" -gt 130 ] && prebuilt_selftest gather-quick s51g $(( $(call_left) - 15 )) --quick --strategy partition --partition-gather
call_pack s51-call3

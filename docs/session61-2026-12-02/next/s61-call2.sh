#!/usr/bin/env bash
# Session 61, call 2: carried values (GPUGB_CARRIED_KEY_WORDS): gathered rows' sums moved by CUB's sort
# beside the mixed keys, against reading them through row numbers (--partition-carry off); forced PARTITION
# and auto, 4-byte keys, two and four payloads, 2^18-2^26; Nsight Compute's phases at 2^24 (four payloads,
# uniform) both ways; the quick PARTITION self-test, and its direct cases under --partition-uncarried.
# Binaries: this session's kernelbench and device_selftest (test/bin/s61a) in .gpu-box/bins-s61a.tar.xz.
#   run(command="bash docs/session61-2026-12-02/next/s61-call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s61a.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 480 .gpu-box/bins-s61a.tar.xz
prebuilt_kb carry-off s61a 110 --methods partition,auto --keys 4 --payloads 2,4 --log2-groups 18:26:2 --partition-carry off
prebuilt_kb carry-on s61a 110 --methods partition,auto --keys 4 --payloads 2,4 --log2-groups 18:26:2
ab_ratios carry-off carry-on
grep -oE "[0-9]+ gathered partition launches carried their sums" "$OUT/carry-on.log" | sort | uniq -c | head -5
prebuilt_selftest quick-part s61a 150 --quick --strategy partition
prebuilt_selftest quick-direct-uncarried s61a 60 --quick --strategy partition --partition-uncarried --only "partition direct"
ncu_in_order carry-on-2p24 s61a --methods partition --keys 4 --payloads 4 --dists uniform --log2-groups 24
ncu_in_order carry-off-2p24 s61a --methods partition --keys 4 --payloads 4 --dists uniform --log2-groups 24 --partition-carry off
call_pack s61-call2

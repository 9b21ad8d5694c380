#!/usr/bin/env bash
# Written in session 55 for session 56's first call: the experiment GPUGB_GID_SPLIT_SUMS (cuda/gpugb_device.h;
# never run): two to four sums over more groups than the group-id table holds with all of them, as many as it holds
# with one, take it once a sum. The first launch adds the counts and sum 0 with the word loop and writes each row's
# group id to a column (gpugb_lean_gid_split_first_kernel); each later launch adds one sum from that column with no
# lookup (gpugb_lean_gid_sum_kernel). Target: four payloads at 2^14 groups, 11.6-18.4 ms now (4.9-7.7x the floor,
# 7.3 ms passes); estimate 2.7 + 3 x 1.1 = 6 ms.
# Before (on the development machine; two builds at once, about 5 min):
#   git rev-parse HEAD > .gpu-box/HEAD
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s56m
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s56m
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s56s KB_DEFINES=-DGPUGB_GID_SPLIT_SUMS=1
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s56s DEVICE_DEFINES=-DGPUGB_GID_SPLIT_SUMS=1
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s56q KB_DEFINES=-DGPUGB_PARTIAL_L1_RESERVE_BYTES=32768
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s56t KB_DEFINES=-DGPUGB_PARTITION_L1_RESERVE_BYTES=32768
#   tar cJf .gpu-box/bins-s56m.tar.xz test/bin/s56m/kernelbench test/bin/s56m/device_selftest
#   tar cJf .gpu-box/bins-s56s.tar.xz test/bin/s56s/kernelbench test/bin/s56s/device_selftest
#   tar cJf .gpu-box/bins-s56qt.tar.xz test/bin/s56q/kernelbench test/bin/s56t/kernelbench
#   run(command="bash docs/session55-2026-12-01/next/s56-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s56m.tar.xz", ".gpu-box/bins-s56s.tar.xz", ".gpu-box/bins-s56qt.tar.xz"])
# Also two experiments of the L1 reserve's kind (src/heuristics.h), kernel benchmark only: s56q, SHARED_HASH's
# one-block partial lean table (2^16 at Zipf 1.5: 3.36-3.47 ms, 2.86 passes the floor), and s56t, PARTITION's lean
# kernel's block table (the 29 misses of 3x Thrust at 2^22-2^26; its gathers through row numbers barely overlapped
# its own work in session 51, which a starved L1 would explain). Each halves those tables' slots on the H200. If
# either wins, the self-test's partition and shared_hash sets with it as the default before it lands.
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 590 .gpu-box/bins-s56m.tar.xz .gpu-box/bins-s56s.tar.xz .gpu-box/bins-s56qt.tar.xz
# Correctness first: the split's own cases (153-159) under both strategies, with the experiment and without.
prebuilt_selftest split-sh s56s 60 --strategy shared_hash --only "lean gid split"
prebuilt_selftest split-auto s56s 60 --strategy auto --only "lean gid split"
prebuilt_selftest split-sh-main s56m 60 --strategy shared_hash --only "lean gid split"
prebuilt_selftest gid-sh s56s 45 --strategy shared_hash --only "lean gid"
# The A/B: four payloads (and one, unchanged by design), 2^12-2^15, both key widths, every distribution.
G="--methods shared_hash,auto --keys 4,8 --payloads 4 --log2-groups 12:15:1"
prebuilt_kb main s56m 90 $G
prebuilt_kb split s56s 90 $G
ab_ratios main split
grep -E "4 payload|shared_hash |auto " "$OUT/split.log" | grep -A2 "4 payload" | grep -E "g=2\^14|shared_hash |auto " | cut -c1-220 | head -40
ncu_in_order s56s-sh14 s56s --methods shared_hash --keys 4 --payloads 4 --log2-groups 14 --dists uniform
# The partial one-block table: one and four payloads, 2^14-2^20 (where auto or a forced SHARED_HASH take it).
P="--methods shared_hash,auto --keys 4,8 --payloads 1 --log2-groups 14:20:2"
prebuilt_kb partial-main s56m 60 $P
prebuilt_kb partial-l1 s56q 60 $P
ab_ratios partial-main partial-l1
# PARTITION's lean kernel: 2^18-2^26, where it runs.
T="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 20:26:2"
prebuilt_kb part-main s56m 120 $T
prebuilt_kb part-l1 s56t 120 $T
ab_ratios part-main part-l1
# Session 56: the two speeds of 4-byte keys with a hot group, 9 reps (the CSV's median and min tell whether a
# method invocation's reps differ among themselves or only invocations do).
prebuilt_kb twospeed s56m 50 --methods shared_hash,auto --keys 4 --payloads 1 --dists zipf1.0,zipf1.5 --log2-groups 10:14:2 --reps 9
prebuilt_selftest quick-sh s56s 90 --quick --strategy shared_hash
call_pack s56-call1

#!/usr/bin/env bash
# Session 52, call 4: PARTITION's tile searches as 32-way warp searches (GPUGB_PARTITION_WARP_SEARCH) and the
# direct flush's stores (GPUGB_DIRECT_FLUSH_STORES), both on in s52n (main's working tree); s52d0 is the code
# before them (c2214bd, call 1's binaries); s52st the stores alone; s52n0 the search alone.
# 1. the self-test's PARTITION quick set;
# 2. the kernel benchmark's A/B s52d0 -> s52n: partition and auto, 4- and 8-byte keys, one and four payloads,
#    2^22-2^26, uniform, Zipf 0.5 and 1.0; Nsight Compute's stages at 2^26 (4-byte keys, one payload) for the
#    four builds;
# 3. the auto quick set. pgTAP and qgen are call5.sh (the debs and both builds' binaries outgrow one call's 64 MiB).
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 585 .gpu-box/bins-s52.tar.xz .gpu-box/bins-s52n.tar.xz
prebuilt_selftest partition s52n 150 --quick --strategy partition
G="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 22:26:2 --dists uniform,zipf0.5,zipf1.0"
prebuilt_kb d0 s52d0 100 $G
prebuilt_kb n s52n 100 $G
ab_ratios d0 n
for b in s52d0 s52st s52n0 s52n; do
  ncu_in_order $b-g26 $b --methods partition --keys 4 --payloads 1 --log2-groups 26 --dists uniform | grep -E "lean|total"
done
prebuilt_selftest auto s52n 60 --quick --strategy auto
prebuilt_selftest direct s52n 60 --strategy partition --only "partition direct"
call_pack s52-call4

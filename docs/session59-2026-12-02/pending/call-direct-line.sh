#!/usr/bin/env bash
# Ready for session 60 (not run): does the restart's line (GPUGB_DIRECT_MIN_GROUPS, 2^21, cuda/groupby.cu) miss Zipf
# draws of 2^21 keys (2,097,109 distinct, 43 short)? Auto at four payloads, Zipf 1.0, 2^21 took 29.7-30.1 ms without
# a restart where forced PARTITION took 19.6-19.8 (session 59, calls 4-5). The line at 0.9 x 2^21 against the
# default, both key widths, one and four payloads, 2^20-2^22, then 2^26 (where session 51 saw a line of 2^20 lose
# 0.95x with 8-byte keys). Build a kernelbench (any commit from 50744af on) as test/bin/NAME first, and replace s59u
# below with NAME if it differs.
#   run(command="bash docs/session59-2026-12-02/pending/call-direct-line.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s59u.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 300 .gpu-box/bins-s59u.tar.xz
P="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 20:22:1"
prebuilt_kb line-2p21 s59u 80 $P
prebuilt_kb line-0p9 s59u 80 $P --direct-min-groups 1887437
ab_ratios line-2p21 line-0p9
prebuilt_kb hi-2p21 s59u 45 --methods auto --keys 8 --payloads 1,4 --log2-groups 26
prebuilt_kb hi-0p9 s59u 45 --methods auto --keys 8 --payloads 1,4 --log2-groups 26 --direct-min-groups 1887437
ab_ratios hi-2p21 hi-0p9
call_pack s60-direct-line

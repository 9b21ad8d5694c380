#!/usr/bin/env bash
# Session 57, call 1: the group-id table once a sum and group range (s57r, the working tree at its build)
# against main before it (s57m = cd31c61). The `lean gid` self-test cases (their new `lean gid ranges`
# ones among them) with SHARED_HASH forced and with auto; the A/B at 2^14-2^17 groups (2^14: no range,
# a control); GLOBAL_HASH and PARTITION at 2^15 and 2^17, which the grid lacks, for the best of each
# point; the quick SHARED_HASH set.
#   run(command="bash docs/session57-2026-12-02/next/call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s57m.tar.xz", ".gpu-box/bins-s57r.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 560 .gpu-box/bins-s57m.tar.xz .gpu-box/bins-s57r.tar.xz
prebuilt_selftest gid-sh s57r 60 --only "lean gid" --strategy shared_hash
prebuilt_selftest gid-auto s57r 60 --only "lean gid" --strategy auto
R="--keys 4,8 --payloads 1,4 --log2-groups 14:17:1"
prebuilt_kb r-new s57r 130 --methods shared_hash,auto $R
prebuilt_kb r-old s57m 130 --methods shared_hash,auto $R
ab_ratios r-old r-new
prebuilt_kb others s57m 70 --methods global_hash,partition --keys 4,8 --payloads 1,4 --log2-groups 15,17
grep -E "^\|" "$OUT/r-new.md" | head -80
[ "$(call_left)" -gt 70 ] && prebuilt_selftest quick-sh s57r 60 --quick --strategy shared_hash
call_pack s57-call1

#!/usr/bin/env bash
# Session 51, call 5: auto's restart after its probe from fewer groups expected. With gathered rows
# (call 4) auto missed 20 % of forced PARTITION at one point: 4-byte keys, four payloads, Zipf 1.0, 2^22
# (29.57 ms against 24.57), where its probe saw 303310 groups and it did not restart, so its PARTITION
# launch could not number directly nor gather. kernelbench --direct-min-groups (spec.device_direct_min_groups)
# makes GPUGB_DIRECT_MIN_GROUPS (2^22) an A/B of one build: auto over 2^14-2^26, both key widths, one and
# four payloads, four distributions, at 2^22 (default), 2^21 and 2^20; then the self-test's auto quick set.
#   run(command="bash docs/session51-2026-11-30/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s51k.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 330 .gpu-box/bins-s51k.tar.xz
G="--methods auto --keys 4,8 --payloads 1,4 --log2-groups 14:26:2 --dists uniform,zipf0.5,zipf1.0,zipf1.5"
prebuilt_kb direct22 s51k 80 $G
prebuilt_kb direct21 s51k 80 $G --direct-min-groups 2097152
prebuilt_kb direct20 s51k 80 $G --direct-min-groups 1048576
ab_ratios direct22 direct21 | awk -F'|' 'NR<=3 || $6+0 < 0.97 || $6+0 > 1.03'
ab_ratios direct22 direct20 | awk -F'|' 'NR<=3 || $6+0 < 0.97 || $6+0 > 1.03'
[ "$(call_left)" -gt 40 ] && prebuilt_selftest auto s51k $(( $(call_left) - 8 )) --quick --strategy auto
call_pack s51-call5

#!/usr/bin/env bash
# Session 56, call 2: the experiment GPUGB_WARP_MATCH_ADD (s56w, built from main with the split still an
# experiment, against s56m of the same base): the lanes of a warp step that add to one block-table slot add
# together (__match_any_sync), in the group-id table, the fast keyed kernel and PARTITION's deferred tables. Its
# self-test sets first, then the A/B (3 reps, both orders once). No debs: the three binaries (3.3 MB) and the
# debs (17.7 MB) do not fit in the carry beside the tracked tree (46 MB).
#   run(command="bash docs/session56-2026-12-01/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s56mw.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 450 .gpu-box/bins-s56mw.tar.xz
prebuilt_selftest wm-quick-sh s56w 60 --quick --strategy shared_hash
prebuilt_selftest wm-quick-part s56w 60 --quick --strategy partition
W="--methods shared_hash,auto --keys 4,8 --payloads 1,4 --log2-groups 6:14:2"
prebuilt_kb wm-main s56m 60 $W
prebuilt_kb wm-on s56w 60 $W
prebuilt_kb wm-on2 s56w 60 $W
prebuilt_kb wm-main2 s56m 60 $W
ab_ratios wm-main wm-on
ab_ratios wm-main2 wm-on2
WP="--methods partition --keys 4,8 --payloads 1,4 --dists uniform,zipf1.0,zipf1.5 --log2-groups 16:22:2"
prebuilt_kb wmp-main s56m 45 $WP
prebuilt_kb wmp-on s56w 45 $WP
ab_ratios wmp-main wmp-on
call_pack s56-call2

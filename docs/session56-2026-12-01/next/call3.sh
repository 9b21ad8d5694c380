#!/usr/bin/env bash
# Session 56, call 3: main with the group-id table once a sum the default (s56d). The grid's four-payload points
# it changes (SHARED_HASH and auto, 2^12-2^16, 3 reps) while the extension builds; then the whole self-test in the
# background beside pgTAP and 150 qgen queries with auto, and with SHARED_HASH forced if time is left.
#   run(command="bash docs/session56-2026-12-01/next/call3.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s56d.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 575 .gpu-box/bins-s56d.tar.xz
ext_build_start
prebuilt_kb grid4p s56d 60 --methods shared_hash,auto --keys 4,8 --payloads 4 --log2-groups 12:16:1
# The two speeds of a hot group: each repetition's time and its largest group's id (--rep-trace).
prebuilt_kb twospeed s56d 40 --methods shared_hash,auto --keys 4 --payloads 1 --dists zipf1.0,zipf1.5 --log2-groups 10,14 --reps 9 --rep-trace on
grep -E "g=2|rep " "$OUT/twospeed.log" | cut -c1-150
( prebuilt_selftest whole s56d 440 > "$OUT/whole.txt" 2>&1 ) &
WHOLE=$!
ext_build_wait
pgtap_strategies auto shared_hash
wait $WHOLE
cat "$OUT/whole.txt"
call_pack s56-call3

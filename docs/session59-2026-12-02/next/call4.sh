#!/usr/bin/env bash
# Session 59, call 4: the reserve's rule from 0.9 x 2^21 groups (s59t: the commit after 4f1238d's call 3) over
# 4-byte keys with four payloads, every dist, every power 2^20-2^26, forced PARTITION and auto; which points took
# the reserve (the kernel benchmark's "left L1 its reserve").
#   run(command="bash docs/session59-2026-12-02/next/call4.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s59t.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 200 .gpu-box/bins-s59t.tar.xz
prebuilt_kb rule2 s59t 150 --methods partition,auto --keys 4 --payloads 4 --log2-groups 20:26:1
awk '/^[0-9]-byte keys/ {p=$0} /left L1/ {print substr(p,1,70), "|", $1, $3, $4}' "$OUT/rule2.log"
call_pack s59-call4

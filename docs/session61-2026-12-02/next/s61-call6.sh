#!/usr/bin/env bash
# Session 61, call 6: auto's two new lines (src/heuristics.c: one skewed sum from 0.1 x L2, four int32 sums over an
# int32 key from 0.8 x L2) against the forced strategies in one run, at the points they move (and their neighbours).
# Binary: this session's kernelbench with the lines (test/bin/s61b) in .gpu-box/bins-s61b.tar.xz.
#   run(command="bash docs/session61-2026-12-02/next/s61-call6.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s61b.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 130 .gpu-box/bins-s61b.tar.xz
prebuilt_kb lines-1p s61b 50 --methods auto,partition,shared_hash --keys 4,8 --payloads 1 --dists zipf1.0 --log2-groups 16:18
prebuilt_kb lines-4p s61b 60 --methods auto,partition,global_hash,shared_hash --keys 4 --payloads 4 --dists uniform,zipf0.5,zipf1.0 --log2-groups 18:20
grep -hE "auto picks" "$OUT/lines-1p.log" "$OUT/lines-4p.log" | sort | uniq | head -20
call_pack s61-call6

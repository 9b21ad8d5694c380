#!/usr/bin/env bash
# Ready for session 61 (not run): auto's new line for four int32 sums over an 8-byte key
# (LEAN_PARTITION_HASHED_SUMS_MIN_L2_MULTIPLE, src/heuristics.c, 0.1 x L2), which session 60 wrote after its last
# GPU call: auto against the forced strategies at 2^14-2^20 (every power), four payloads, both key widths (4-byte
# keys as the control: the line does not apply to them); then sort_layout_bench's new 4-byte-key layouts. The
# binaries are session 60's HEAD (test/bin/s60h/kernelbench, test/bin/s60b/sort_layout_bench) in
# .gpu-box/bins-s60i.tar.xz; rebuild them if that file is missing (docs/session59-2026-12-02/pending/next-steps.md,
# setup) and keep the names. Then run the suites with auto through PostgreSQL (next/call5.sh, with HEAD's tree).
#   run(command="bash docs/session60-2026-12-02/next/s61-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s60i.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 300 .gpu-box/bins-s60i.tar.xz
prebuilt_kb auto-p4 s60h 120 --methods auto,partition,global_hash,shared_hash --keys 4,8 --payloads 4 --log2-groups 14:20:1
grep -E "auto picks" "$OUT/auto-p4.log" | sort | uniq -c | head -40
test/bin/s60b/sort_layout_bench --bits 12,14,16 --reps 3 2>&1 | tee "$OUT/sort-layouts.txt"
call_pack s61-call1

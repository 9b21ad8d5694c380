#!/usr/bin/env bash
# Session 52, call 6: the whole device self-test on main's code (s52n: the warp search and the direct flush's
# stores), and where the lean kernel's samples sit now at 2^26 (4-byte keys, one payload, uniform), by SASS
# instruction, after the change (call 3 had them before).
#   run(command="bash docs/session52-2026-12-01/next/call6.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s52n.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 480 .gpu-box/bins-s52n.tar.xz
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 100 ncu -k "regex:gpugb_partition_lean_kernel" -c 1 --section SourceCounters \
  --section WarpStateStats --page source --print-source sass --csv test/bin/s52n/kernelbench --keys 4 --payloads 1 \
  --dists uniform --methods partition --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null --log2-groups 26 \
  > "$OUT/sass-n-p1-g26.csv" 2> "$OUT/sass-n-p1-g26.err"
echo "== ncu source s52n p1 g26 rc=$? ($(( $(date +%s) - t0 )) s)"
python3 test/kernelbench/sass_stalls.py "$OUT/sass-n-p1-g26.csv" 2>&1 | sed -n '2,12p'
gzip -9 "$OUT"/*.csv
prebuilt_selftest whole s52n $(( $(call_left) - 10 ))
call_pack s52-call6

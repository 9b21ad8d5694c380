#!/usr/bin/env bash
# Session 52, call 3: where PARTITION's lean kernel spends its time at 2^26 groups, by CUDA line and SASS
# instruction (Nsight Compute's source page, warp-state samples), test/bin/s52li = main's code built with
# -lineinfo (NVCC="nvcc -lineinfo"). 4-byte keys, uniform: one payload (mixed words) and four (gathered rows);
# one payload at 2^22 for the contrast (the lean kernel: 4.1 ms at 2^22, 9.3 at 2^26; about 22 us of an SM a
# partition more, session 52's reading of calls 1-2).
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 300 .gpu-box/bins-s52li.tar.xz
KB="test/bin/s52li/kernelbench --keys 4 --dists uniform --methods partition --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null"
for a in "1 26" "4 26" "1 22"; do
  set -- $a
  for src in sass cuda; do
    t0=$(date +%s)
    CUDA_MODULE_LOADING=EAGER timeout 100 ncu -k "regex:gpugb_partition_lean_kernel" -c 1 --section SourceCounters \
      --section WarpStateStats --page source --print-source $src --csv $KB --payloads $1 --log2-groups $2 \
      > "$OUT/$src-p$1-g$2.csv" 2> "$OUT/$src-p$1-g$2.err"
    echo "== ncu source $src p$1 g$2 rc=$? ($(( $(date +%s) - t0 )) s) $(wc -l < "$OUT/$src-p$1-g$2.csv") lines"
  done
  python3 test/kernelbench/sass_stalls.py "$OUT/sass-p$1-g$2.csv" 2>&1 | head -22
done
gzip -9 "$OUT"/*.csv
call_pack s52-call3

#!/usr/bin/env bash
# Session 53, call 6: call 5's profile of SHARED_HASH at three more floor misses: 4-byte keys, one payload,
# 2^12; 8-byte keys, one payload, 2^14; 4-byte keys, four payloads, Zipf 1.0, 2^14.
#   run(command="bash docs/session53-2026-12-01/next/call6.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s53b.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 150 .gpu-box/bins-s53b.tar.xz
for a in "4 1 uniform 12" "8 1 uniform 14" "4 4 zipf1.0 14"; do
  set -- $a
  name=k$1p$2-$3-g$4
  P="--methods shared_hash --keys $1 --payloads $2 --dists $3 --log2-groups $4"
  ncu_in_order $name s53a $P | grep -E "gpugb|total"
  CUDA_MODULE_LOADING=EAGER timeout 40 ncu -k "regex:gpugb_lean" -c 1 --section SpeedOfLight --section Occupancy \
    --section LaunchStats --csv test/bin/s53a/kernelbench $P --reps 1 --bw-gib 1 --max-seconds 30 --md /dev/null \
    > "$OUT/details-$name.csv" 2> "$OUT/details-$name.err"
  grep -E '"(Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per Thread|Dynamic Shared Memory Per Block)"' \
    "$OUT/details-$name.csv" | awk -F'","' '{print $(NF-3) "|" $(NF-1) "|" $NF}' | tr -d '"' | head -8
  CUDA_MODULE_LOADING=EAGER timeout 40 ncu -k "regex:gpugb_lean" -c 1 --section SourceCounters --section WarpStateStats \
    --page source --print-source sass --csv test/bin/s53a/kernelbench $P --reps 1 --bw-gib 1 --max-seconds 30 \
    --md /dev/null > "$OUT/sass-$name.csv" 2> "$OUT/sass-$name.err"
  python3 test/kernelbench/sass_stalls.py "$OUT/sass-$name.csv" 2>&1 | sed -n '2,8p'
done
gzip -9 "$OUT"/*.csv
call_pack s53-call6

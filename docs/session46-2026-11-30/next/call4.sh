#!/usr/bin/env bash
# Session 46, call 4: where the compact flush's lean kernel stalls, by SASS instruction: Nsight Compute's
# source page (warp-state samples per instruction) at 2^26 and 2^24 groups, 4-byte keys, one payload,
# uniform, forced PARTITION (test/bin/s46c).
#   run(command="bash docs/session46-2026-11-30/next/call4.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s46c.tar.xz"], timeout_s=300)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s46-call4}; mkdir -p "$O"
T0=$(date +%s)
tar xJf .gpu-box/bins-s46c.tar.xz || exit 1
KB="test/bin/s46c/kernelbench --keys 4 --payloads 1 --dists uniform --methods partition --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null"
for g in 26 24; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 100 ncu -k "regex:gpugb_partition_lean_kernel" -c 1 --section SourceCounters \
    --section WarpStateStats --page source --print-source sass --csv $KB --log2-groups $g > "$O/sass-$g.csv" 2> "$O/sass-$g.err"
  echo "ncu source $g rc=$? ($(( $(date +%s) - t0 )) s) $(wc -l < "$O/sass-$g.csv") lines"
  python3 docs/session46-2026-11-30/next/sass_stalls.py "$O/sass-$g.csv" 2>&1 | head -45
done
gzip -9 "$O"/*.csv "$O"/*.err 2>/dev/null
echo "total $(( $(date +%s) - T0 )) s"

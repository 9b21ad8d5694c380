#!/usr/bin/env bash
# Session 41, call 2 (about 3 minutes), with the binaries of whatever call 1 decided: where
# PARTITION's time goes at the nearest 3x-Thrust misses (session 40's grid: 4-byte keys, one payload,
# 2^22, 2.86x uniform and 2.70x Zipf 0.5; four payloads at 2^20, 2.35-2.49x; 8-byte keys, one
# payload, 2^22, 2.10x): every gpugb kernel's duration (Nsight Compute), summed by kernel.  Two
# gpugb launches a point (the warm-up's and the measured run's): halve the sums for one.
#   run(command="bash docs/session40-2026-11-30/next/s41-call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=300)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s41-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
for spec in "4 1 uniform 22" "4 1 zipf0.5 22" "4 4 uniform 20" "8 1 uniform 22" "4 1 uniform 24" "4 1 uniform 26"; do
  set -- $spec
  name=k$1-p$2-$3-g$4 t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 90 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb_|DeviceRadixSort" \
    test/bin/kernelbench --keys $1 --payloads $2 --dists $3 --log2-groups $4 --methods partition --reps 1 \
    --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-$name.csv" 2> "$O/ncu-$name.err"
  echo "== ncu partition $name rc=$? ($(( $(date +%s) - t0 )) s); DeviceRadixSort includes Thrust's"
  python3 test/kernelbench/ncu_phases.py --by-kernel "$O/ncu-$name.csv"
done
gzip -9 "$O"/*.csv "$O"/*.err 2>/dev/null
cd "$O" && tar czf s41-call2.tgz ./*.gz 2>/dev/null; rm -f ./*.gz
echo "total $(( $(date +%s) - T0 )) s"

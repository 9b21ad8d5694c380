#!/usr/bin/env bash
# Session 47, call 3:
# 1. where auto's time goes against forced PARTITION where auto probes with GLOBAL_HASH and switches (grid: auto
#    0.5-1.2 ms behind with one payload at 2^22-2^26, up to 4 ms with four): every gpugb and CUB kernel in launch
#    order (ncu gpu__time_duration), 4-byte keys, one payload, uniform, 2^22 and 2^24, auto and partition, main's
#    device code (test/bin/s47c);
# 2. the whole device self-test at main (04f29c2: the compact flush and its trap), 300 s cap (it needs about 260).
#   run(command="bash docs/session47-2026-11-30/next/call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s47c.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s47-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s47c.tar.xz || exit 1
KB="test/bin/s47c/kernelbench --keys 4 --payloads 1 --dists uniform --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null"
for g in 22 24; do
  for m in partition auto; do
    t0=$(date +%s)
    CUDA_MODULE_LOADING=EAGER timeout 90 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb|Radix|Onesweep|Histogram|Scan|Partition|Reduce" \
      $KB --methods $m --log2-groups $g > "$O/ncu-$m-$g.csv" 2> "$O/ncu-$m-$g.err"
    echo "ncu $m 2^$g rc=$? ($(( $(date +%s) - t0 )) s)"
    python3 test/kernelbench/ncu_phases.py --in-order "$O/ncu-$m-$g.csv" | tail -30
  done
  # the same without ncu, for the wall times
  CUDA_MODULE_LOADING=EAGER timeout 60 $KB --reps 3 --methods partition,auto --log2-groups $g 2>&1 | grep -E "^\s+(auto|partition) " | cut -c1-250
done
t0=$(date +%s)
timeout 300 test/bin/s47c/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest (all) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-300
gzip -9 "$O"/*.log "$O"/*.err "$O"/*.csv 2>/dev/null
cd "$O" && tar czf s47-call3.tgz ./*.gz && rm -f ./*.gz
echo "total $(( $(date +%s) - T0 )) s"

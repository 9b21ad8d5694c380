#!/usr/bin/env bash
# Session 44's fourth call: PARTITION's one-pass scatter (2^9-2^11 partitions), branch s44-scatter-reload.
#   test/bin/new/          main's kernel code (kernelbench, as session 43 built it at 1b0733a)
#   test/bin/kb-count/     + GPUGB_SCATTER_COUNT_BATCH (the count kernel loads its rows' partitions first)
#   test/bin/kb-reload/    + GPUGB_SCATTER_RELOAD (the scatter reloads its rows after the scan: 512 threads
#                            of 16 rows, two blocks an SM for 8-byte rows)
#   test/bin/st-reload/    device_selftest with both
# 1. the self-test's PARTITION cases with both; 2. A/B, forced PARTITION and auto at 2^18-2^22, both key
# widths and payload counts, uniform and Zipf 1.0, 3 reps; 3. Nsight: the scatter's kernels at 2^22.
#   run(command="bash docs/session44-2026-11-30/next/call4.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz", ".gpu-box/bins4.tar.xz"], timeout_s=420)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s44-call4}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz && tar xJf .gpu-box/bins4.tar.xz || exit 1
t0=$(date +%s)
timeout 150 test/bin/st-reload/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-partition.log"
grep -E "^FAIL" "$O/selftest-partition.log" | head -8 | cut -c1-400
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 100 "$bin" --bw-gib 1 --max-seconds 95 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
for side in new kb-count kb-reload; do
  kb $side test/bin/$side/kernelbench --reps 3 --keys 4,8 --payloads 1,4 --log2-groups 18:22:2 \
    --dists uniform,zipf1.0 --methods partition,auto
done
echo "== main -> count"; python3 test/kernelbench/ab_table.py "$O/new.csv" "$O/kb-count.csv" | grep -E "^\|"
echo "== main -> reload"; python3 test/kernelbench/ab_table.py "$O/new.csv" "$O/kb-reload.csv" | grep -E "^\|"
for side in new kb-reload; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb_scatter|gpugb_partition_lean|DeviceScan" \
    test/bin/$side/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 22 --methods partition --reps 1 \
    --bw-gib 1 --max-seconds 40 --md /dev/null > "$O/ncu-$side-22.csv" 2> "$O/ncu-$side-22.err"
  echo "== ncu $side 2^22 rc=$? ($(( $(date +%s) - t0 )) s)"
  python3 test/kernelbench/ncu_phases.py --by-kernel "$O/ncu-$side-22.csv" | head -8
done
gzip -9 "$O"/*.log "$O"/*.csv "$O"/*.err 2>/dev/null
cd "$O" && tar czf s44-call4.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

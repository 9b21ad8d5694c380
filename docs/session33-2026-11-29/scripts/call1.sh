#!/usr/bin/env bash
# Session 33, call 1 (about 7 minutes), carrying only the HEAD file:
#   run(command="bash docs/session32-2026-11-29/next/call1.sh", carry=[".gpu-box/HEAD"], timeout_s=600)
# Where the lean partition kernel's time goes (cuda/partition_lean_kernel.cuh; session 32 has no
# profile of it): Nsight Compute of gpugb_partition_lean_kernel at 2^20 and 2^22 groups, one
# payload, 4-byte keys (per SASS instruction, warp states, memory), and the phases of a PARTITION
# launch (pack, sort, unpack, bounds, kernel) from Nsight Compute's durations; first the
# partition self-test (case 100: a refused move) and the 12-byte rows' experiment.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s33-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$? at $(( $(date +%s) - T0 )) s"
wait
# The experiment spec.partition_move_tight (12-byte rows for an 8-byte key and a 4-byte value,
# session 32, not yet run): the partition self-test under it, then an A/B in one run.
t0=$(date +%s)
timeout 90 test/bin/device_selftest --require-gpu --quick --strategy partition --partition-tight > "$O/selftest-tight.log" 2>&1
echo "selftest --strategy partition --partition-tight rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-tight.log")"
grep -E "^FAIL" "$O/selftest-tight.log" | head -5
grep -E "refused" "$O/selftest-tight.log" | cut -c1-200
for v in off on; do
  CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 --keys 8 --payloads 1 \
    --dists uniform,zipf1.0 --log2-groups 14:22:2 --methods partition --partition-tight $v \
    --csv "$O/tight-$v.csv" --md "$O/tight-$v.md" > "$O/tight-$v.log" 2>&1
  echo "partition-tight $v rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/tight-$v.md")"
done
python3 test/kernelbench/ab_table.py "$O/tight-off.csv" "$O/tight-on.csv" | tee "$O/tight-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
kb1() { test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --methods partition --bw-gib 1 \
  --max-seconds 100 --md /dev/null "$@"; }
# The phases of one PARTITION launch at 2^22 (the warm-up's and the measured run's), each kernel's
# duration from Nsight Compute (nsys is not on the box: device/KINDS.md).
if [ $(( $(date +%s) - T0 )) -lt 300 ]; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 120 ncu --clock-control none -k "regex:gpugb_move_|DeviceRadixSort|gpugb_partition_" \
    --section SpeedOfLight -f -o "$O/phases" \
    test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 22 --methods partition --bw-gib 1 \
    --max-seconds 100 --md /dev/null > "$O/phases.log" 2>&1
  echo "ncu phases rc=$? ($(( $(date +%s) - t0 )) s)"
  ncu -i "$O/phases.ncu-rep" --page raw --csv --metrics gpu__time_duration.sum > "$O/phases.csv" 2>> "$O/ncu-page.err"
  python3 - "$O/phases.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) > 2:
    h = rows[0]
    k, d = h.index("Kernel Name"), h.index("gpu__time_duration.sum")
    for r in rows[2:]:
        print(f"  {r[k][:70]:70s} {r[d]:>12s} {rows[1][d]}")
PY
fi
for g in 22 20; do
  [ $(( $(date +%s) - T0 )) -lt 420 ] || { echo "ncu 2^$g skipped (time)"; break; }
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 120 ncu --clock-control none --launch-count 1 -k "regex:gpugb_partition_lean_kernel" \
    --section SourceCounters --section InstructionStats --section WarpStateStats --section Occupancy \
    --section MemoryWorkloadAnalysis --section SpeedOfLight -f -o "$O/lean-2e$g" \
    test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups $g \
    --methods partition --bw-gib 1 --max-seconds 120 --md /dev/null > "$O/ncu-$g.log" 2>&1
  echo "ncu 2^$g rc=$? ($(( $(date +%s) - t0 )) s): $(grep -c '==PROF== Profiling' "$O/ncu-$g.log") kernels profiled"
  ncu -i "$O/lean-2e$g.ncu-rep" --page source --csv --print-source sass > "$O/lean-2e$g-sass.csv" 2>> "$O/ncu-page.err"
  ncu -i "$O/lean-2e$g.ncu-rep" --page details > "$O/lean-2e$g-details.txt" 2>> "$O/ncu-page.err"
  grep -E "^ +(Executed Instructions|Achieved Occupancy|Memory Throughput|Duration|Registers Per Thread|Compute \(SM\) Throughput) " "$O/lean-2e$g-details.txt"
  gzip -f "$O/lean-2e$g-sass.csv"
done
rm -f "$O"/*.ncu-rep
cd "$O" && tar czf call1.tgz ./*.log ./*.csv ./*.md ./*.txt ./*.gz ./*.err 2>/dev/null && rm -f ./*.log ./*.csv ./*.md ./*.txt ./*.gz ./*.err
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 33, call 1 (about 5 minutes), carrying only the HEAD file:
#   run(command="bash docs/session32-2026-11-29/next/call1.sh", carry=[".gpu-box/HEAD"], timeout_s=600)
# Where the lean partition kernel's time goes (cuda/partition_lean_kernel.cuh; session 32 has no
# profile of it): Nsight Compute of gpugb_partition_lean_kernel at 2^20 and 2^22 groups, one
# payload, 4-byte keys (per SASS instruction, warp states, memory), and the phases of a PARTITION
# launch (pack, sort, unpack, bounds, kernel) from Nsight Systems' kernel summary.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s33-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
make -s -j16 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$? at $(( $(date +%s) - T0 )) s"
kb1() { test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --methods partition --bw-gib 1 \
  --max-seconds 100 --md /dev/null "$@"; }
if command -v nsys > /dev/null; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 120 nsys profile -t cuda -o "$O/phases" -f true \
    test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --methods partition --bw-gib 1 \
    --log2-groups 18:22:2 --max-seconds 100 --md /dev/null > "$O/nsys.log" 2>&1
  echo "nsys rc=$? ($(( $(date +%s) - t0 )) s)"
  nsys stats -r cuda_gpu_kern_sum -f csv -o "$O/phases" "$O/phases.nsys-rep" > /dev/null 2>> "$O/nsys.log"
  head -12 "$O"/phases_cuda_gpu_kern_sum.csv 2>/dev/null | cut -c1-200
  rm -f "$O"/*.nsys-rep "$O"/*.sqlite
fi
for g in 20 22; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 150 ncu --clock-control none --launch-count 1 -k "regex:gpugb_partition_lean_kernel" \
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
cd "$O" && tar czf call1.tgz ./*.log ./*.csv ./*.txt ./*.gz ./*.err 2>/dev/null && rm -f ./*.log ./*.csv ./*.txt ./*.gz ./*.err
echo "total $(( $(date +%s) - T0 )) s"

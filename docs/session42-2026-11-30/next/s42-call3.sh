#!/usr/bin/env bash
# Session 42, call 3 (under 600 s): main at 39a63a1 (PARTITION's packer hashes its one key directly), on
# the GPU:
# 1. the whole self-test, while the extension builds;
# 2. the PostgreSQL path with PARTITION forced (pgTAP and qgen);
# 3. the kernel benchmark's upper half of the grid (2^16-2^26), as session 41's call 6, if time is left;
# 4. Nsight Compute sections of the two largest kernels at the nearest 3x miss, if time is left.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session42-2026-11-30/next/s42-call3.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s42-call3}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" ) &
BUILD=$!
t0=$(date +%s)
timeout 300 test/bin/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-all.log"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
wait $BUILD
for step in ${STEPS:-partition}; do
  [ "$(left)" -gt 150 ] || { echo "pgTAP $step skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Overflowed" "$O/$step.log" | tail -8
done
# The server is left running, idle; the benchmark does not use it.
if [ "$(left)" -gt 150 ]; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout $(( $(left) - 10 )) test/bin/kernelbench --reps 1 --max-seconds $(( $(left) - 30 )) \
    --log2-groups 16:26:2 --methods auto,global_hash,partition,sort --csv "$O/grid-hi.csv" --md "$O/grid-hi.md" > "$O/grid-hi.log" 2>&1
  echo "kernelbench grid-hi rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/grid-hi.md")"
else
  echo "grid-hi skipped (time: $(left) s left)"
fi
if [ "$(left)" -gt 40 ]; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout $(( $(left) - 10 )) ncu -k "regex:gpugb_partition_lean_kernel|gpugb_scatter_rows_kernel" -c 2 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
    test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 22 --methods partition --reps 1 \
    --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-sections.txt" 2> "$O/ncu-sections.err"
  echo "ncu sections rc=$? ($(( $(date +%s) - t0 )) s)"
fi
gzip -9 "$O"/*.log "$O"/*.txt "$O"/*.err 2>/dev/null
cd "$O" && tar czf s42-call3.tgz ./*.gz ./*.csv ./*.md $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.gz ./*.csv ./*.md $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

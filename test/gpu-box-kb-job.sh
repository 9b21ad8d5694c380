#!/usr/bin/env bash
# test/gpu-box-kb-job.sh — the kernel benchmark on chosen points, then (where Nsight Compute
# is installed) a profile of the row loops at a few points, as a job of test/gpu-box-job.sh:
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-kb-job.sh", carry=[".gpu-box"])
#
# Environment: KB_ARGS (the points; default: four payloads, every distribution, g = 2^12 to
# 2^26, where the heuristic's wide-state rules decide), KB_SECONDS (300), KB2_ARGS (a second
# pass, none by default), KB2_SECONDS (200), PROFILE (1).
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null)"
t0=$(date +%s)
make -s -j"$(nproc)" -C test/kernelbench CUDA_ARCHS=90 > "$OUT/build.log" 2>&1
echo "build rc=$? ($(( $(date +%s) - t0 )) s)"
t0=$(date +%s)
# shellcheck disable=SC2086
CUDA_MODULE_LOADING=EAGER test/bin/kernelbench ${KB_ARGS:---payloads 4 --log2-groups 12:26:2} \
  --max-seconds "${KB_SECONDS:-300}" --csv "$OUT/kernelbench.csv" --md "$OUT/kernelbench.md" \
  > "$OUT/kernelbench.log" 2>&1
echo "kernelbench rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^## Verification/p' "$OUT/kernelbench.md" | head -30
grep -E "verified|MISMATCH" "$OUT/kernelbench.md" | head -5

# A second pass (KB2_ARGS), such as a few points again with --reps 3, into kernelbench2.*.
if [ -n "${KB2_ARGS:-}" ]; then
  t0=$(date +%s)
  # shellcheck disable=SC2086
  CUDA_MODULE_LOADING=EAGER test/bin/kernelbench $KB2_ARGS --max-seconds "${KB2_SECONDS:-200}" \
    --csv "$OUT/kernelbench2.csv" --md "$OUT/kernelbench2.md" > "$OUT/kernelbench2.log" 2>&1
  echo "kernelbench (second pass: $KB2_ARGS) rc=$? ($(( $(date +%s) - t0 )) s)"
  sed -n '/^## Targets/,/^## Verification/p' "$OUT/kernelbench2.md" | head -30
  grep -E "verified|MISMATCH" "$OUT/kernelbench2.md" | head -5
fi

if [ "${PROFILE:-1}" = 1 ] && ! command -v ncu > /dev/null; then
  echo "no ncu: $(ls /usr/local/cuda/bin | tr '\n' ' ')"
elif [ "${PROFILE:-1}" = 1 ]; then
  # The row loops' limits: one launch each, 2^28 rows, one payload.
  for point in "private_hash 0" "shared_hash 8" "global_hash 16"; do
    set -- $point
    t0=$(date +%s)
    CUDA_MODULE_LOADING=EAGER timeout 120 ncu --launch-count 1 -k "regex:private_agg|shared_agg|gpugb_agg_kernel" \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section MemoryWorkloadAnalysis \
      test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups "$2" --methods "$1" \
      --max-seconds 60 --md /dev/null > "$OUT/ncu-$1-$2.txt" 2>&1
    echo "ncu $1 g=2^$2 rc=$? ($(( $(date +%s) - t0 )) s)"
    grep -E "Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Stall|Warp Cycles Per Issued|Issued Ipc|Compute \(SM\)" \
      "$OUT/ncu-$1-$2.txt" | head -24
  done
fi
touch "$OUT/job.done"

#!/usr/bin/env bash
# test/gpu-box-sort-job.sh — a short check of changes to the hash probe and the sort strategy
# on the GPU box, as a job of test/gpu-box-job.sh (about 6 minutes):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-sort-job.sh", carry=[".gpu-box"])
#
#  1. the device self-test, every case and strategy, --quick; stops here if it fails;
#  2. QGEN_QUERIES (1000) qgen queries in auto mode;
#  3. the kernel benchmark's sort, partition and auto points from 2^12 to 2^26 groups
#     (KB_SECONDS, 200), to set against a grid run on the same card.
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
job_start
step_selftest --quick || { job_done; exit 0; }
step_qgen
make -s -j"$(nproc)" -C test/kernelbench CUDA_ARCHS=90 > "$OUT/kb-build.log" 2>&1
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --keys 4,8 --payloads 1,4 --dists uniform,zipf1.0 \
  --log2-groups 12:26:2 --methods sort,partition,auto --max-seconds "${KB_SECONDS:-200}" \
  --csv "$OUT/kb-sort.csv" --md "$OUT/kb-sort.md" > "$OUT/kb-sort.log" 2>&1
echo "kernelbench sort points rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'verified' "$OUT/kb-sort.md")"
job_done

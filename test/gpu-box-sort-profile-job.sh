#!/usr/bin/env bash
# test/gpu-box-sort-profile-job.sh — where the sort strategy's time goes, kernel by kernel, as a
# job of test/gpu-box-job.sh (about 5 minutes; needs Nsight Compute, ncu, on the box):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-sort-profile-job.sh", carry=[".gpu-box"])
#
# At 2^22-2^26 groups every strategy is slower than the kernel benchmark's Thrust baseline
# (sort_by_key + reduce_by_key: 0.4-0.9x, docs/kernelbench-2026-11-27.md), where issue 3 asks
# for 3x.  This times every kernel of one sort point (ncu's gpu__time_duration, one replay pass)
# for 4- and 8-byte keys, one payload, uniform, at 2^16, 2^22 and 2^26 groups, in the working
# tree and in each tree of OTHERS (test/gpu-box-branch-trees.sh), and sums the times by phase,
# per launch, for the sort strategy and for the benchmark's Thrust reference, which runs in the
# same process (test/kernelbench/ncu_phases.py tells their CUB sorts apart by launch order; every
# kernel is in ncu-*.csv).
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
job_start
if ! command -v ncu > /dev/null; then echo "no ncu"; job_done; exit 0; fi
branch_trees || { job_done; exit 0; }
trees=("$PWD" "${BRANCH_TREES[@]}")
build_kernelbench "${trees[@]}"
for tree in "${trees[@]}"; do
  side=$(basename "$tree")
  for k in 4 8; do
    for g in 16 22 26; do
      name=$side-k$k-g$g t0=$(date +%s)
      CUDA_MODULE_LOADING=EAGER timeout 120 ncu --metrics gpu__time_duration.sum --csv \
        "$tree/test/bin/kernelbench" --keys "$k" --payloads 1 --dists uniform --log2-groups "$g" \
        --methods sort --reps 1 --max-seconds 60 --md /dev/null > "$OUT/ncu-$name.csv" 2> "$OUT/ncu-$name.err"
      echo "== $name rc=$? ($(( $(date +%s) - t0 )) s)"
      python3 test/kernelbench/ncu_phases.py "$OUT/ncu-$name.csv"
    done
  done
done
job_done

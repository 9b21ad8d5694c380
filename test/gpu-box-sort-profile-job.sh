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
# tree and in each tree of OTHERS (test/gpu-box-branch-trees.sh), and sums the times by kernel
# name.  The benchmark's Thrust reference runs in the same process: its kernels are in the list
# too (thrust:: and its CUB sort; ours are the gpugb_ kernels and the CUB sort between
# gpugb_sort_key_kernel and gpugb_run_heads_kernel), in launch order in ncu-*.csv.
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
      python3 - "$OUT/ncu-$name.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit("no ncu rows")
head, body = rows[0], rows[1:]
name_i, metric_i, value_i = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
unit_i = head.index("Metric Unit")
total, count = collections.OrderedDict(), collections.Counter()
for r in body:
    if r[metric_i] != "gpu__time_duration.sum":
        continue
    scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0,
             "s": 1e3, "second": 1e3}[r[unit_i]]  # ncu 2025 writes "ns"
    kernel = r[name_i].split("(")[0].split("<")[0][-60:]
    total[kernel] = total.get(kernel, 0.0) + float(r[value_i].replace(",", "")) * scale
    count[kernel] += 1
for kernel, ms in sorted(total.items(), key=lambda kv: -kv[1])[:14]:
    print(f"  {ms:9.3f} ms  {count[kernel]:3d}x  {kernel}")
PY
    done
  done
done
job_done

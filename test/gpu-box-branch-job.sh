#!/usr/bin/env bash
# test/gpu-box-branch-job.sh — another branch's kernels against the working tree's, on one card,
# and the branch's correctness, as a job of test/gpu-box-job.sh (about 20 minutes):
#
#   rm -rf .gpu-box/other && mkdir -p .gpu-box/other &&
#     git archive BRANCH Makefile gpugb.control sql expected src cuda test | tar -x -C .gpu-box/other &&
#     git rev-parse BRANCH > .gpu-box/other/HEAD
#   run(command="bash test/gpu-box-job.sh test/gpu-box-branch-job.sh", carry=[".gpu-box"])
#
#  1. the branch's device self-test, every case and strategy, --quick;
#  2. the kernel benchmark of both trees, base then branch, KB_PAIRS (2) times, on KB_ARGS
#     (default: sort, partition, global_hash and auto, 4- and 8-byte keys, 2^8 to 2^26 groups),
#     KB_SECONDS (90) each; then the median time ratio base/branch of every point
#     (test/kernelbench/ab_table.py; above 1: the branch is faster);
#  3. STRATEGIES (default: sort partition private_hash) forced through pgTAP and
#     QGEN_STRATEGY_QUERIES (500) qgen queries, on the branch if its self-test passed, else on
#     the working tree.
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
job_start
other=$PWD/.gpu-box/other
[ -f "$other/Makefile" ] || { echo "no $other: see this script's header"; job_done; exit 0; }
echo "branch $(cat "$other/HEAD" 2>/dev/null)"
# The branch's test/gpu-box.sh looks for the packages in its own .gpu-box.
ln -sfn "$PWD/.gpu-box" "$other/.gpu-box"

branch_ok=1
(cd "$other" && step_selftest --quick) || branch_ok=0

for tree in "$PWD" "$other"; do
  make -s -j"$(nproc)" -C "$tree/test/kernelbench" CUDA_ARCHS=90 > "$OUT/kb-build-$(basename "$tree").log" 2>&1 ||
    echo "kernelbench build failed in $tree"
done
pairs=()
for ((i = 1; i <= ${KB_PAIRS:-2}; i++)); do
  for side in base branch; do
    if [ $side = base ]; then bin=test/bin/kernelbench; else bin=$other/test/bin/kernelbench; fi
    t0=$(date +%s)
    # shellcheck disable=SC2086
    CUDA_MODULE_LOADING=EAGER "$bin" ${KB_ARGS:---keys 4,8 --payloads 1,4 --dists uniform,zipf1.0 \
      --log2-groups 8:26:2 --methods sort,partition,global_hash,auto} \
      --max-seconds "${KB_SECONDS:-90}" --csv "$OUT/kb-$side-$i.csv" --md "$OUT/kb-$side-$i.md" \
      > "$OUT/kb-$side-$i.log" 2>&1
    echo "kernelbench $side $i rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'verified' "$OUT/kb-$side-$i.md")"
    pairs+=("$OUT/kb-$side-$i.csv")
  done
done
python3 test/kernelbench/ab_table.py "${pairs[@]}" | tee "$OUT/ab-median.md"

for s in ${STRATEGIES:-sort partition private_hash}; do
  if [ $branch_ok = 1 ]; then (cd "$other" && step_strategy "$s"); else step_strategy "$s"; fi
done
job_done

#!/usr/bin/env bash
# test/gpu-box-branch-job.sh — other branches' kernels against the working tree's, on one card,
# and the first branch's correctness, as a job of test/gpu-box-job.sh (about 20 minutes with the
# defaults):
#
#   bash test/gpu-box-branch-trees.sh other=BRANCH     # .gpu-box/other: BRANCH's sources
#   run(command="bash test/gpu-box-job.sh test/gpu-box-branch-job.sh", carry=[".gpu-box"])
#   run(command="bash test/gpu-box-job.sh test/gpu-box-branch-job.sh")    # polls: no carry, which
#                                                                         # would wipe the builds
#
# OTHERS (default .gpu-box/other): the branches' trees, each made as above; put first the one
# that would be merged (the others can be its parts, to tell their effects apart).
#  1. the first branch's device self-test with SELFTEST_ARGS (default --quick: every case and
#     strategy; SELFTEST=0 skips it);
#  2. the kernel benchmark of every tree, base then each branch, KB_PAIRS (2) rounds, on KB_ARGS
#     (default: sort, partition, global_hash and auto, 4- and 8-byte keys, 2^8 to 2^26 groups),
#     KB_SECONDS (90) each; then per branch the median time ratio base/branch of every point
#     (test/kernelbench/ab_table.py; above 1: the branch is faster);
#  3. STRATEGIES (default: sort partition private_hash; "" for none) forced through pgTAP and
#     QGEN_STRATEGY_QUERIES (500) qgen queries, on the first branch if its self-test passed, else
#     on the working tree.
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
job_start
OTHERS=${OTHERS:-.gpu-box/other}
branch_trees || { job_done; exit 0; }
others=("${BRANCH_TREES[@]}")

first_ok=1
if [ "${SELFTEST:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  (cd "${others[0]}" && step_selftest ${SELFTEST_ARGS:---quick}) || first_ok=0
fi

trees=("$PWD" "${others[@]}")
build_kernelbench "${trees[@]}"
kb_ab_rounds "${KB_PAIRS:-2}" "${KB_SECONDS:-90}" "${KB_ARGS:---keys 4,8 --payloads 1,4 \
  --dists uniform,zipf1.0 --log2-groups 8:26:2 --methods sort,partition,global_hash,auto}" "${trees[@]}"

for s in ${STRATEGIES-sort partition private_hash}; do
  if [ $first_ok = 1 ]; then (cd "${others[0]}" && step_strategy "$s"); else step_strategy "$s"; fi
done
job_done

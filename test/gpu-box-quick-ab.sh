#!/usr/bin/env bash
# test/gpu-box-quick-ab.sh — a kernel-benchmark A/B small enough for one device call (under 600 s),
# so that nothing depends on a warm machine surviving between calls: an API stall of more than
# 30 s between the polls of test/gpu-box-job.sh gives the machine back and loses the job
# (session 21).  On the development machine:
#
#   bash test/gpu-box-branch-trees.sh other-h=probe-revert-heads other-k=probe-revert-keyed
#   run(command='OTHERS=".gpu-box/other-h .gpu-box/other-k" ROUNDS=2 \
#     KB_ARGS="--keys 4 --payloads 1,4 --dists uniform --log2-groups 20:26:2 --methods sort" \
#     timeout 560 bash test/gpu-box-quick-ab.sh', carry=[".gpu-box"], timeout_s=590)
#
# Builds the kernel benchmark in this tree (base) and in each of OTHERS, then ROUNDS (1)
# rounds of every tree in turn, KB_SECONDS (40) each with KB_ARGS, and per branch the median
# time ratio base/branch (test/kernelbench/ab_table.py; above 1: the branch is faster).  Each
# run verifies its results against Thrust (the "verified" line).  Files: $OUT (the device
# tool's), or /tmp/gpugb-quick-ab.  The steps are test/lib/gpu-box-steps.sh's, as the branch job's.
set -uo pipefail
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
export OUT=${OUT:-/tmp/gpugb-quick-ab}
mkdir -p "$OUT"
job_start
[ -n "${OTHERS:-}" ] || { echo "OTHERS: the branch trees (test/gpu-box-branch-trees.sh)"; exit 2; }
branch_trees || exit 2
trees=("$PWD" "${BRANCH_TREES[@]}")
nvidia-smi --query-gpu=name --format=csv,noheader
t0=$(date +%s)
build_kernelbench "${trees[@]}"
echo "built in $(( $(date +%s) - t0 )) s"
kb_ab_rounds "${ROUNDS:-1}" "${KB_SECONDS:-40}" "${KB_ARGS:---keys 4 --payloads 1,4 --dists uniform \
  --log2-groups 0:26:2 --methods sort,global_hash,shared_hash,private_hash} --bw-gib 1" "${trees[@]}"

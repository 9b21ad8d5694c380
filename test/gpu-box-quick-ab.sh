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
# Builds the kernel benchmark in this tree (base) and in each of OTHERS at once, then ROUNDS (1)
# rounds of every tree in turn, KB_SECONDS (40) each with KB_ARGS, and per branch the median
# time ratio base/branch (test/kernelbench/ab_table.py; above 1: the branch is faster).  Each
# run verifies its results against Thrust (the "verified" line).  Files: $OUT (the device
# tool's), or /tmp/gpugb-quick-ab.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/gpugb-quick-ab}
mkdir -p "$out"
trees=(.)
for o in ${OTHERS:?OTHERS: the branch trees (test/gpu-box-branch-trees.sh)}; do
  [ -f "$o/Makefile" ] || { echo "no $o: run test/gpu-box-branch-trees.sh"; exit 2; }
  echo "branch $(basename "$o"): $(cat "$o/HEAD" 2>/dev/null)"
  trees+=("$o")
done
side_of() { if [ "$1" = . ]; then echo base; else basename "$1"; fi; }

echo "$(nvidia-smi --query-gpu=name --format=csv,noheader), base $(cat .gpu-box/HEAD 2>/dev/null)"
t0=$(date +%s)
jobs=$(( $(nproc) / ${#trees[@]} )); [ "$jobs" -ge 1 ] || jobs=1
for t in "${trees[@]}"; do
  make -s -j"$jobs" -C "$t/test/kernelbench" CUDA_ARCHS=90 > "$out/build-$(side_of "$t").log" 2>&1 &
done
wait || true
for t in "${trees[@]}"; do
  [ -x "$t/test/bin/kernelbench" ] || { echo "build failed in $t:"; tail -20 "$out/build-$(side_of "$t").log"; exit 1; }
done
echo "built in $(( $(date +%s) - t0 )) s"

for ((i = 1; i <= ${ROUNDS:-1}; i++)); do
  for t in "${trees[@]}"; do
    side=$(side_of "$t")
    t1=$(date +%s)
    # shellcheck disable=SC2086
    CUDA_MODULE_LOADING=EAGER "$t/test/bin/kernelbench" ${KB_ARGS:---keys 4 --payloads 1,4 \
      --dists uniform --log2-groups 0:26:2 --methods sort,global_hash,shared_hash,private_hash} \
      --max-seconds "${KB_SECONDS:-40}" --bw-gib 1 --csv "$out/kb-$side-$i.csv" --md "$out/kb-$side-$i.md" \
      > "$out/kb-$side-$i.log" 2>&1
    echo "kernelbench $side $i rc=$? ($(( $(date +%s) - t1 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$out/kb-$side-$i.md")"
  done
done
for t in "${trees[@]:1}"; do
  side=$(side_of "$t") pairs=()
  for ((i = 1; i <= ${ROUNDS:-1}; i++)); do pairs+=("$out/kb-base-$i.csv" "$out/kb-$side-$i.csv"); done
  python3 test/kernelbench/ab_table.py "${pairs[@]}" | tee "$out/ab-$side.md"
done

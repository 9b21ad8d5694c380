#!/usr/bin/env bash
# test/gpu-box-branch-trees.sh NAME=REV [NAME=REV...] — on the development machine, the trees
# test/gpu-box-branch-job.sh compares against the working tree: each REV's sources in
# .gpu-box/NAME (carried to the GPU box with .gpu-box), its commit in .gpu-box/NAME/HEAD, and the
# working tree's commit in .gpu-box/HEAD.  Prints the OTHERS value to pass the job.
#
#   bash test/gpu-box-branch-trees.sh other-b=gpu-pending other-a=gpu-pending~2
set -euo pipefail
cd "$(dirname "$0")/.."
others=()
for spec in "$@"; do
  name=${spec%%=*} rev=${spec#*=}
  [ -n "$name" ] && [ "$name" != "$spec" ] || { echo "usage: $0 NAME=REV..." >&2; exit 2; }
  rm -rf ".gpu-box/$name" && mkdir -p ".gpu-box/$name"
  git archive "$rev" Makefile gpugb.control sql expected src cuda test | tar -x -C ".gpu-box/$name"
  git rev-parse "$rev" > ".gpu-box/$name/HEAD"
  others+=(".gpu-box/$name")
done
git rev-parse HEAD > .gpu-box/HEAD
echo "OTHERS=\"${others[*]}\""

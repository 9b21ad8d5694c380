#!/usr/bin/env bash
# Session 29, call 6 (about a minute): test/kernelbench/shared_bound.cu on the H200: a block table
# in shared memory, a group id given against a key looked up, 2^2-2^12 groups.
#   run(command="bash docs/session29-2026-11-29/scripts/call6.sh", timeout_s=150)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call6}; mkdir -p "$O"
T0=$(date +%s)
make -s -C test/kernelbench shared_bound CUDA_ARCHS=90 > "$O/build.log" 2>&1; echo "build rc=$?"
timeout 100 test/bin/shared_bound > "$O/shared_bound.md" 2> "$O/shared_bound.err"
echo "shared_bound rc=$? ($(( $(date +%s) - T0 )) s)"
cat "$O/shared_bound.md"; tail -5 "$O/shared_bound.err"

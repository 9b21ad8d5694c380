#!/usr/bin/env bash
# Session 29, call 4 (about 1-2 minutes): test/kernelbench/atomic_bound.cu on the H200: the time
# of one atomic per state and row with the group id given, columnar against group-major global
# states, with and without one probe load a row.
#   run(command="bash docs/session29-2026-11-29/scripts/call4.sh", timeout_s=170)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call4}; mkdir -p "$O"
T0=$(date +%s)
make -s -C test/kernelbench atomic_bound CUDA_ARCHS=90 > "$O/build.log" 2>&1; echo "build rc=$?"
timeout 140 test/bin/atomic_bound --log2-groups 6:26:2 > "$O/atomic_bound.md" 2> "$O/atomic_bound.err"
echo "atomic_bound rc=$? ($(( $(date +%s) - T0 )) s)"
cat "$O/atomic_bound.md"; tail -5 "$O/atomic_bound.err"

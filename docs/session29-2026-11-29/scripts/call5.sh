#!/usr/bin/env bash
# Session 29, call 5 (about a minute): test/kernelbench/dsmem_bound.cu on the H200: 2^10-2^18
# groups in a thread-block cluster's distributed shared memory, one remote atomic per state.
#   run(command="bash docs/session29-2026-11-29/scripts/call5.sh", timeout_s=150)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call5}; mkdir -p "$O"
T0=$(date +%s)
make -s -C test/kernelbench dsmem_bound CUDA_ARCHS=90 > "$O/build.log" 2>&1; echo "build rc=$?"
timeout 100 test/bin/dsmem_bound > "$O/dsmem_bound.md" 2> "$O/dsmem_bound.err"
echo "dsmem_bound rc=$? ($(( $(date +%s) - T0 )) s)"
cat "$O/dsmem_bound.md"; tail -5 "$O/dsmem_bound.err"

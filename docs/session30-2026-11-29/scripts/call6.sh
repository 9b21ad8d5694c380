#!/usr/bin/env bash
# Session 30, call 6 (at most 200 s of device time left), carrying .gpu-box:
#   run(command="bash docs/session30-2026-11-29/scripts/call6.sh", carry=[".gpu-box"], timeout_s=200)
#  - the lean self-test cases of the fast kernel and the one-block table, now that the fast
#    kernel's whole tables take one wide block an SM from 64 groups (gpugb_lean_fast_wide_pays);
#  - test/kernelbench/partition_bound (call 5 stopped after its first point: the four-payload
#    table did not fit with a raking BlockScan's storage).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s30-call6}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -C test/kernelbench partition_bound CUDA_ARCHS=90 > "$O/pb-build.log" 2>&1; echo "partition_bound build rc=$?" ) &
( make -s -j14 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
for f in "lean fast key" "lean one-block" "lean: 1 key" "lean: int32 keys"; do
  t0=$(date +%s)
  timeout 25 test/bin/device_selftest --require-gpu --quick --only "$f" >> "$O/selftest.log" 2>&1
  echo "selftest --only '$f' rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
done
grep -E "^FAIL" "$O/selftest.log" | head -5
t0=$(date +%s)
timeout $(( 168 - ($(date +%s) - T0) )) test/bin/partition_bound > "$O/partition_bound.md" 2> "$O/partition_bound.err"
echo "partition_bound rc=$? ($(( $(date +%s) - t0 )) s)"
cat "$O/partition_bound.md"; tail -3 "$O/partition_bound.err"
echo "total $(( $(date +%s) - T0 )) s"

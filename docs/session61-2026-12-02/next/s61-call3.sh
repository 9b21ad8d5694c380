#!/usr/bin/env bash
# Session 61, call 3: HEAD through PostgreSQL (auto's line for four sums over an 8-byte key, session 60; carried
# values of two sums, this session): the extension built on the box from the debs, pgTAP and 150 qgen queries
# with partition and with auto; the device self-test built beside it, in the background: the quick PARTITION set's
# direct cases (carried two sums, gathered three and four) as they are and under --partition-uncarried, then the
# whole set with auto.
#   run(command="bash docs/session61-2026-12-02/next/s61-call3.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 575
ext_build_start
( make -s -j6 -C test/device CUDA_ARCHS=90 > "$OUT/selftest-build.log" 2>&1 || { echo "selftest build failed"; exit 1; }
  for mode in "" --partition-uncarried; do
    timeout 90 test/bin/device_selftest --require-gpu --quick --strategy partition --only "partition direct" $mode \
      > "$OUT/selftest-direct$mode.log" 2>&1
    echo "selftest quick partition direct $mode rc=$?: $(tail -1 "$OUT/selftest-direct$mode.log" | cut -c1-160)"
    grep -E '^FAIL' "$OUT/selftest-direct$mode.log" | head -8 | cut -c1-300
    grep -E '^cases with (gathered|carried)' "$OUT/selftest-direct$mode.log"
  done
  timeout $(( $(call_left) - 15 )) test/bin/device_selftest --require-gpu --strategy auto > "$OUT/selftest-auto.log" 2>&1
  echo "selftest whole auto rc=$?: $(tail -1 "$OUT/selftest-auto.log" | cut -c1-160)"
  grep -E '^FAIL' "$OUT/selftest-auto.log" | head -8 | cut -c1-300
  ) > "$OUT/whole.txt" 2>&1 &
SELFTEST=$!
ext_build_wait
pgtap_strategies partition auto
wait $SELFTEST
cat "$OUT/whole.txt"
call_pack s61-call3

#!/usr/bin/env bash
# Session 60, call 5: hashed rows (GPUGB_HASHED_KEY_WORDS) through PostgreSQL. The extension built on the box
# from the debs; the device self-test built beside it and run in the background: the quick PARTITION set under
# --partition-cub-sort (every deferred launch of 8-byte keys with a sum hashed), then the whole set with auto;
# pgTAP and 150 qgen queries with partition and with auto.
#   run(command="bash docs/session60-2026-12-02/next/call5.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 575
ext_build_start
( make -s -j6 -C test/device CUDA_ARCHS=90 > "$OUT/selftest-build.log" 2>&1 || { echo "selftest build failed" > "$OUT/whole.txt"; exit 1; }
  timeout 150 test/bin/device_selftest --require-gpu --quick --strategy partition --partition-cub-sort \
    > "$OUT/selftest-quick-part-cub.log" 2>&1
  echo "selftest quick partition, CUB's sort, rc=$?: $(tail -1 "$OUT/selftest-quick-part-cub.log" | cut -c1-160)"
  grep -E '^FAIL' "$OUT/selftest-quick-part-cub.log" | head -8 | cut -c1-300
  grep -E '^cases with' "$OUT/selftest-quick-part-cub.log"
  timeout $(( $(call_left) - 15 )) test/bin/device_selftest --require-gpu --strategy auto > "$OUT/selftest-auto.log" 2>&1
  echo "selftest whole auto rc=$?: $(tail -1 "$OUT/selftest-auto.log" | cut -c1-160)"
  grep -E '^FAIL' "$OUT/selftest-auto.log" | head -8 | cut -c1-300
  ) > "$OUT/whole.txt" 2>&1 &
SELFTEST=$!
ext_build_wait
pgtap_strategies partition auto
wait $SELFTEST
cat "$OUT/whole.txt"
call_pack s60-call5

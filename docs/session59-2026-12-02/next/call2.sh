#!/usr/bin/env bash
# Session 59, call 2: 2f81c76 (PARTITION's L1 reserve as a rule) through PostgreSQL. The extension built on the
# box from the debs (the tracked tree, the debs and a binary tarball pass the device tool's 64 MiB), the device
# self-test built beside it and run in the background: the quick PARTITION set with the reserve always taken,
# then the whole set with auto (session 58 ran it: 149 cases, 0 failed; those files were lost); pgTAP and 150
# qgen queries with partition and with auto.
#   run(command="bash docs/session59-2026-12-02/next/call2.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 575
ext_build_start
( make -s -j6 -C test/device CUDA_ARCHS=90 > "$OUT/selftest-build.log" 2>&1 || { echo "selftest build failed" > "$OUT/whole.txt"; exit 1; }
  timeout 150 test/bin/device_selftest --require-gpu --quick --strategy partition --partition-l1-reserve \
    > "$OUT/selftest-quick-part-l1.log" 2>&1
  echo "selftest quick partition, reserve always, rc=$?: $(tail -1 "$OUT/selftest-quick-part-l1.log" | cut -c1-160)"
  grep -E '^FAIL' "$OUT/selftest-quick-part-l1.log" | head -8 | cut -c1-300
  grep -E '^cases with' "$OUT/selftest-quick-part-l1.log"
  timeout $(( $(call_left) - 15 )) test/bin/device_selftest --require-gpu --strategy auto > "$OUT/selftest-auto.log" 2>&1
  echo "selftest whole auto rc=$?: $(tail -1 "$OUT/selftest-auto.log" | cut -c1-160)"
  grep -E '^FAIL' "$OUT/selftest-auto.log" | head -8 | cut -c1-300
  ) > "$OUT/whole.txt" 2>&1 &
SELFTEST=$!
ext_build_wait
pgtap_strategies partition auto
wait $SELFTEST
cat "$OUT/whole.txt"
call_pack s59-call2

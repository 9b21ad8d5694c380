#!/usr/bin/env bash
# Session 57, call 3: the ranges through PostgreSQL. The extension built on the box from the debs (no prebuilt
# binaries: the tracked tree, the debs and a binary tarball pass the device tool's 64 MiB), the device
# self-test built beside it and run with SHARED_HASH forced and with auto in the background, pgTAP (whose
# 04_shapes asserts `Shared Launches Split By Sum` and `... By Group Range` with SHARED_HASH forced) and 150
# qgen queries with shared_hash and with auto.
#   run(command="bash docs/session57-2026-12-02/next/call3.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 575
ext_build_start
( make -s -j6 -C test/device CUDA_ARCHS=90 > "$OUT/selftest-build.log" 2>&1 || { echo "selftest build failed" > "$OUT/whole.txt"; exit 1; }
  for s in shared_hash auto; do
    timeout 170 test/bin/device_selftest --require-gpu --strategy "$s" > "$OUT/selftest-$s.log" 2>&1
    echo "selftest $s rc=$?: $(tail -1 "$OUT/selftest-$s.log" | cut -c1-160)"
    grep -E '^FAIL' "$OUT/selftest-$s.log" | head -8 | cut -c1-300
  done > "$OUT/whole.txt" 2>&1 ) &
SELFTEST=$!
ext_build_wait
pgtap_strategies shared_hash auto
wait $SELFTEST
cat "$OUT/whole.txt"
call_pack s57-call3

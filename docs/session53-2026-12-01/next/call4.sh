#!/usr/bin/env bash
# Session 53, call 4: main with the review's fix (gpugb_scratch_unavailable keeps an in-flight set's packed rows
# whose retries are to come; the columns' pitch kept with them) and its case 142 (a second launch's scratch
# refused): s53r, built from the working tree; s53pre the same case on e579c82's scratch_unavailable and pitch
# (it must fail there, or the case proves nothing). Then the extension built on the box, pgTAP and qgen through
# PostgreSQL with PARTITION forced and with auto.
#   run(command="bash docs/session53-2026-12-01/next/call4.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s53v.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 585 .gpu-box/bins-s53v.tar.xz
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j10 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$OUT/ext-build.log" 2>&1
  echo "ext build rc=$? ($(( $(date +%s) - CALL_T0 )) s)" > "$OUT/ext-build.rc" ) &
build=$!
prebuilt_selftest refused s53r 60 --strategy partition --only "scratch refused"
prebuilt_selftest refused-pre s53pre 60 --strategy partition --only "scratch refused"
prebuilt_selftest quick s53r 150 --quick --strategy partition
prebuilt_selftest auto s53r 60 --quick --strategy auto
wait $build
cat "$OUT/ext-build.rc"
for s in partition auto; do
  [ "$(call_left)" -gt 125 ] || { echo "pgTAP $s skipped (time: $(call_left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES=$s QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$OUT/$s" \
    timeout -k 5 $(( $(call_left) - 12 )) bash test/gpu-box.sh strategies > "$OUT/pg-$s.log" 2>&1
  echo "pgTAP and qgen $s rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$OUT/pg-$s.log" | tail -10
done
call_pack s53-call4

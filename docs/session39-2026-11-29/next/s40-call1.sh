#!/usr/bin/env bash
# Session 40, call 1 (under 600 s): what session 39 committed after its last GPU call (da3fffe):
#  - 6af25a9, gpugb_table_reserve grows only past 1.01x the table's groups (RESERVE_SLACK): session 39's
#    grid (call 6) had auto at uniform 2^20, one payload, 12.07 ms against GLOBAL_HASH's 9.74 after
#    the check doubled a table sized right;
#  - test/pgtap/05_estimates.sql section 4: forced PARTITION with one group planned must overflow.
# 1. the whole self-test, while the extension builds;
# 2. auto at the right estimate, 2^18-2^24, against session 39's call-6 grid (da3fffe, no slack);
# 3. the PostgreSQL path with PARTITION forced (pgTAP and qgen), as time allows.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session39-2026-11-29/next/s40-call1.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s40-call1}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" ) &
BUILD=$!
t0=$(date +%s)
timeout 300 test/bin/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-all.log"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 80 test/bin/kernelbench --reps 1 --max-seconds 70 --log2-groups 18:24:2 \
  --methods auto,global_hash,partition --csv "$O/slack.csv" --md "$O/slack.md" > "$O/slack.log" 2>&1
echo "kernelbench slack rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/slack.md")"
grep -E "^    auto " "$O/slack.log" | grep -c "grow(s)" | sed 's/^/auto runs with a grow: /'
python3 test/kernelbench/ab_table.py docs/session39-2026-11-29/call6/grid-hi.csv "$O/slack.csv" | grep -E "^\|"
wait $BUILD
for step in ${STEPS:-partition}; do
  [ "$(left)" -gt 170 ] || { echo "pgTAP $step skipped (time)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Overflowed" "$O/$step.log" | tail -8
done
gzip -9 "$O"/*.log
cd "$O" && tar czf s40-call1.tgz ./*.csv ./*.md ./*.log.gz $(ls -d */ 2>/dev/null) 2>/dev/null && rm -rf ./*.csv ./*.md ./*.log.gz $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

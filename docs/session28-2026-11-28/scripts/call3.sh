#!/usr/bin/env bash
# Session 28, call 3 (the device budget's last ~600 s), at the commit that plans the one-block
# lean table (also for whole tables of which fewer than four blocks fit an SM), 512-thread
# partial blocks, and the partial table at any skew within twice its slots:
#  - the self-test's lean cases (--quick --only lean), cases 74-77 included;
#  - the full kernel benchmark grid;
#  - qgen in gpu mode with gpugb.strategy = auto, in what is left.
#   run(command="LIMIT=550 bash docs/session28-2026-11-28/scripts/call3.sh", carry=[".gpu-box"], timeout_s=590)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call3}; mkdir -p "$O"
T0=$(date +%s); LIMIT=${LIMIT:-550}; left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j5 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j6 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j5 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 100 test/bin/device_selftest --require-gpu --quick --only lean > "$O/selftest.log" 2>&1
echo "selftest --only lean rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
grep -E "one-block|no one-block" "$O/selftest.log" | grep -E "\[(auto|shared_hash)\]" | cut -c1-180
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 250 test/bin/kernelbench --reps 1 --max-seconds 235 \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
echo "runs that took the one-block lean table: $(grep -c 'one-block lean table' "$O/grid.log")"
echo "left $(left) s"
if [ "$(left)" -gt 40 ]; then
  t0=$(date +%s)
  QGEN_QUERIES=3000 OUT="$O/qgen" timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh qgen > "$O/qgen.log" 2>&1
  rc=$?
  pkill -INT -f 'postgres: pg ' 2>/dev/null; sleep 1
  echo "qgen auto rc=$rc ($(( $(date +%s) - t0 )) s):"; grep -E 'queries checked|mismatch' "$O/qgen.log" | tail -3
fi
cd "$O" && tar czf call3.tgz ./*.log ./*.csv ./*.md qgen 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md qgen
echo "total $(( $(date +%s) - T0 )) s"

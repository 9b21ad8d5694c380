#!/usr/bin/env bash
# Session 38: the PostgreSQL path on the GPU box, in steps that fit a call each (the extension's build
# takes about 100 s; pgTAP with qgen about 190 s a strategy; regress about 135 s). Session 37's call 3
# ran regress and pgTAP/qgen with auto at 22bbe3a; pgTAP with partition was skipped for time, and the
# scatter (af3c989 on) is new since: its pgTAP check (04_shapes.sql, a bigint key with one int4 sum:
# 'Partition Launches With Scattered Rows') runs only with partition forced on the device.
#   run(command="bash docs/session37-2026-11-29/next/s38-pg.sh partition auto",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"], timeout_s=600)
#   run(command="bash docs/session37-2026-11-29/next/s38-pg.sh regress", same carry)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s38-pg}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" )
echo "build done at $(( $(date +%s) - T0 )) s"
for step in "$@"; do
  case $step in
    regress)
      t0=$(date +%s)
      timeout -k 5 $(( $(left) - 5 )) bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
      echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)" ;;
    *)
      [ "$(left)" -gt 170 ] || { echo "pgTAP $step skipped (time)"; continue; }
      t0=$(date +%s)
      STRATEGIES="$step" QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/$step" \
        timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/$step.log" 2>&1
      echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
      grep -E "^Result|queries checked|^not ok" "$O/$step.log" | tail -6 ;;
  esac
done
cd "$O" && tar czf pg.tgz ./*.log $(ls -d */ 2>/dev/null) 2>/dev/null
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 27, call 3 (the device budget's last ~600 s): the lean probe in the PostgreSQL path.
# Builds the extension and the kernel benchmark; pg_regress in gpu mode; pgTAP and qgen with
# auto; then the kernel benchmark on 8-byte keys (the A/B of call 2 had 4-byte keys only) in
# what is left.
#   run(command="bash docs/session27-2026-11-28/scripts/call3.sh", carry=[".gpu-box"], timeout_s=560)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call3}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 500 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j16 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
OUT="$O/regress" timeout 170 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
t0=$(date +%s)
STRATEGIES=auto QGEN_STRATEGY_QUERIES=200 OUT="$O/strategies" timeout $(( $(left) - 60 )) \
  bash test/gpu-box.sh strategies > "$O/strategies.log" 2>&1
echo "strategies auto rc=$? ($(( $(date +%s) - t0 )) s):"; grep -E '^Result|queries checked' "$O/strategies.log" | tail -3
grep -E '^not ok|Failed test' "$O"/strategies/pgtap-*.log 2>/dev/null | head -5
echo "left $(left) s"
if [ "$(left)" -gt 40 ]; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout $(( $(left) - 5 )) test/bin/kernelbench --reps 1 --keys 8 \
    --dists zipf1.5,zipf1.0,uniform,zipf0.5 --max-seconds $(( $(left) - 15 )) \
    --csv "$O/grid-8.csv" --md "$O/grid-8.md" > "$O/grid-8.log" 2>&1
  echo "kernelbench --keys 8 rc=$? ($(( $(date +%s) - t0 )) s)"
  sed -n '/^## Targets/,/^Missed/p' "$O/grid-8.md" | grep -E "^\|" | tail -5
  grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid-8.md"
fi
cd "$O" && tar czf call3.tgz ./*.log ./*.csv ./*.md strategies regress 2>/dev/null &&
  rm -rf ./*.log ./*.csv ./*.md strategies regress
echo "total $(( $(date +%s) - T0 )) s"

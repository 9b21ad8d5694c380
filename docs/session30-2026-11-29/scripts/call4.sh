#!/usr/bin/env bash
# Session 30, call 4 (about 9.5 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session30-2026-11-29/scripts/call4.sh", carry=[".gpu-box"], timeout_s=600)
# The PostgreSQL path at HEAD in gpu mode, where gpugb_lean_fast_kernel is now the plan for lean
# tables of one key, no NULLs and at most one sum (0d83924): pg_regress, then pgTAP and qgen with
# gpugb.strategy = auto.  If time is left: an A/B of the experiment --lean-fast-wide (whole tables
# of the fast kernel in one block an SM with the most slots), one payload, 2^2-2^12 groups.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s30-call4}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" )
echo "ext build done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
OUT="$O/regress" timeout -k 5 170 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
t0=$(date +%s)
# pgTAP took 114 s in session 29; qgen runs about 33 queries a second in 12 streams.
STRATEGIES=auto QGEN_STRATEGY_QUERIES=1500 QGEN_JOBS=12 OUT="$O/strategies" timeout -k 5 $(( $(left) - 10 )) \
  bash test/gpu-box.sh strategies > "$O/strategies.log" 2>&1
rc=$?
pkill -INT -f 'postgres: pg ' 2>/dev/null; sleep 1
echo "strategies auto rc=$rc ($(( $(date +%s) - t0 )) s):"; grep -E '^Result|queries checked' "$O/strategies.log" | tail -3
grep -E '^not ok|Failed test' "$O"/strategies/pgtap-*.log 2>/dev/null | head -5
wait
# time(off) / time(on), above 1: the wide table is faster.  Each run verifies every result.
if [ "$(left)" -gt 45 ] && [ -x test/bin/kernelbench ]; then
  t0=$(date +%s)
  for round in 1 2; do
    for v in off on; do
      [ "$(left)" -gt 12 ] || break
      CUDA_MODULE_LOADING=EAGER timeout $(( $(left) - 5 )) test/bin/kernelbench --bw-gib 1 --max-seconds 20 \
        --lean-fast-wide $v --keys 4,8 --payloads 1 --dists uniform,zipf1.0 --log2-groups 2:12:2 \
        --methods shared_hash --csv "$O/fw-$v-$round.csv" --md "$O/fw-$v-$round.md" > "$O/fw-$v-$round.log" 2>&1
      echo "fast wide $v $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/fw-$v-$round.md")"
    done
  done
  echo "A/B took $(( $(date +%s) - t0 )) s"
  python3 test/kernelbench/ab_table.py "$O"/fw-off-1.csv "$O"/fw-on-1.csv "$O"/fw-off-2.csv "$O"/fw-on-2.csv 2>&1 \
    | tee "$O/fw-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
fi
cd "$O" && tar czf call4.tgz ./*.log ./*.csv ./*.md strategies regress 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md strategies regress
echo "total $(( $(date +%s) - T0 )) s"

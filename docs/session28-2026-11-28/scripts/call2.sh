#!/usr/bin/env bash
# Session 28, call 2 (about 9.5 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session28-2026-11-28/scripts/call2.sh", carry=[".gpu-box"], timeout_s=600)
# At the commit that plans call 1's two experiments (512-thread partial lean blocks; the
# one-block lean table, taken by auto): the whole self-test (--quick), pg_regress in gpu mode,
# then pgTAP and qgen with gpugb.strategy = auto in what is left.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call2}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 570 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j4 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j4 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
( make -s -j4 -C .gpu-box/obwhole/test/kernelbench CUDA_ARCHS=90 > "$O/kb-obwhole-build.log" 2>&1; echo "kb (obwhole) build rc=$?" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j4 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 170 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
grep -E "one-block|no one-block" "$O/selftest.log" | grep -E "\[(auto|shared_hash|global_hash)\]" | cut -c1-200
# A/B: the one-block lean table for whole tables too (branch exp-one-block-whole, in
# .gpu-box/obwhole) against HEAD, forced shared_hash at 2^2-2^10 groups, one payload.
t0=$(date +%s)
for round in 1 2; do
  for t in head obwhole; do
    bin=test/bin/kernelbench; [ $t = obwhole ] && bin=.gpu-box/obwhole/test/bin/kernelbench
    CUDA_MODULE_LOADING=EAGER timeout 60 $bin --bw-gib 1 --keys 4,8 --payloads 1 --log2-groups 2:10:2 \
      --methods shared_hash --csv "$O/obw-$t-$round.csv" --md "$O/obw-$t-$round.md" > "$O/obw-$t-$round.log" 2>&1
    echo "one-block whole $t $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/obw-$t-$round.md"), $(grep -c 'one-block lean table' "$O/obw-$t-$round.log") runs took it"
  done
done
echo "A/B took $(( $(date +%s) - t0 )) s; time(head) / time(obwhole), above 1: one-block whole tables are faster"
python3 test/kernelbench/ab_table.py "$O/obw-head-1.csv" "$O/obw-obwhole-1.csv" "$O/obw-head-2.csv" "$O/obw-obwhole-2.csv" \
  | tee "$O/obw-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
t0=$(date +%s)
OUT="$O/regress" timeout -k 5 170 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
grep -A3 "^diff\|FAILED\|failed (" "$O/regress.log" | head -20
t0=$(date +%s)
STRATEGIES=auto QGEN_STRATEGY_QUERIES=300 OUT="$O/strategies" timeout -k 5 $(( $(left) - 10 )) \
  bash test/gpu-box.sh strategies > "$O/strategies.log" 2>&1
rc=$?
# A timed-out step's clients die with it, but a backend may still run its query: cancel them.
pkill -INT -f 'postgres: pg ' 2>/dev/null; sleep 1
echo "strategies auto rc=$rc ($(( $(date +%s) - t0 )) s):"; grep -E '^Result|queries checked' "$O/strategies.log" | tail -3
grep -E '^not ok|Failed test' "$O"/strategies/pgtap-*.log 2>/dev/null | head -5
grep -E '^(ok|not ok)' "$O"/strategies/pgtap-*.log 2>/dev/null | tail -3
cd "$O" && tar czf call2.tgz ./*.log ./*.csv ./*.md strategies regress 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md strategies regress
echo "total $(( $(date +%s) - T0 )) s"

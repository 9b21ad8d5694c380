#!/usr/bin/env bash
# Session 25, call 3 (tree: prefetch from 3 sums). Kernel A/B against prefetch never (other-m4)
# and main at 2-4 sums; then auto through pgTAP and 1000 qgen queries.
cd "$(dirname "$0")/.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source test/lib/gpu-box-steps.sh
T0=$(date +%s); left() { echo $(( 565 - ($(date +%s) - T0) )); }
OTHERS=".gpu-box/other-m4 .gpu-box/other-main"; branch_trees
for t in "$PWD" "${BRANCH_TREES[@]}"; do
  ( make -s -j16 -C "$t/test/kernelbench" CUDA_ARCHS=90 > "$OUT/kb-build-$(basename $t).log" 2>&1; echo "kb build $(basename $t) rc=$?" ) &
done
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1; make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > $OUT/ext-build.log 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
kb_ab_rounds 3 35 "--keys 4,8 --payloads 2,3,4 --dists uniform,zipf1.5 --log2-groups 0:10:2 --methods shared_hash --bw-gib 1" "$PWD" "${BRANCH_TREES[@]}" > $OUT/ab.log 2>&1
grep -c "0 MISMATCH, 0 errors" $OUT/ab.log; grep -E "MISMATCH" $OUT/ab.log | grep -v " 0 MISMATCH, 0 errors" | head -3
echo "ab done at $(( $(date +%s) - T0 )) s; left $(left) s"
t0=$(date +%s)
STRATEGIES=auto QGEN_STRATEGY_QUERIES=1000 OUT=$OUT/strategies timeout $(( $(left) - 5 )) bash test/gpu-box.sh strategies > "$OUT/strategies.log" 2>&1
echo "strategies rc=$? ($(( $(date +%s) - t0 )) s):"; grep -E '^Result|all streams|queries checked' "$OUT/strategies.log" | tail -3
grep -E '^not ok|Failed test' "$OUT"/strategies/pgtap-*.log 2>/dev/null | head -5
cd $OUT && tar czf kb.tgz kb-*.csv kb-*.log strategies 2>/dev/null && rm -rf kb-*.csv kb-*.log kb-*.md strategies
echo "total $(( $(date +%s) - T0 )) s"

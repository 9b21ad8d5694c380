#!/usr/bin/env bash
# Session 25, call 2 (tree: chain + NULLS instance + prefetch from 2 sums). Builds; self-test
# --quick; kernel A/B against main, chain, chain+prefetch (3 rounds); shared_hash forced
# through pgTAP and 400 qgen queries.
cd "$(dirname "$0")/.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source test/lib/gpu-box-steps.sh
T0=$(date +%s); left() { echo $(( 565 - ($(date +%s) - T0) )); }
OTHERS=".gpu-box/other-main .gpu-box/other-chain .gpu-box/other-pf"; branch_trees
( make -s -j16 -C test/device CUDA_ARCHS=90 > $OUT/selftest-build.log 2>&1; echo "selftest build rc=$?" ) &
for t in "$PWD" "${BRANCH_TREES[@]}"; do
  ( make -s -j16 -C "$t/test/kernelbench" CUDA_ARCHS=90 > "$OUT/kb-build-$(basename $t).log" 2>&1; echo "kb build $(basename $t) rc=$?" ) &
done
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1; make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > $OUT/ext-build.log 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick > $OUT/selftest.log 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 $OUT/selftest.log)"; grep -E "^FAIL" $OUT/selftest.log | head
kb_ab_rounds 3 35 "--keys 4 --payloads 1,2,4 --dists uniform,zipf1.5 --log2-groups 0:12:2 --methods shared_hash,auto --bw-gib 1" "$PWD" "${BRANCH_TREES[@]}" > $OUT/ab.log 2>&1
grep -E "rc=" $OUT/ab.log | grep -v "verified: .* 0 MISMATCH" | head -3; grep -c "0 MISMATCH, 0 errors" $OUT/ab.log
echo "ab done at $(( $(date +%s) - T0 )) s; left $(left) s"
t0=$(date +%s)
STRATEGIES=shared_hash QGEN_STRATEGY_QUERIES=400 OUT=$OUT/strategies timeout $(( $(left) - 5 )) bash test/gpu-box.sh strategies > "$OUT/strategies.log" 2>&1
echo "strategies rc=$? ($(( $(date +%s) - t0 )) s):"; grep -E '^Result|all streams' "$OUT/strategies.log"
grep -E '^not ok|Failed test' "$OUT"/strategies/pgtap-*.log 2>/dev/null | head -5
cd $OUT && tar czf kb.tgz kb-*.csv kb-*.log selftest.log 2>/dev/null && rm -f kb-*.csv kb-*.log kb-*.md
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 25, call 1 (tree: chain+prefetch). Builds everything in parallel; the self-test
# --quick; a kernel A/B of main, chain, chain+prefetch at 2^0-2^12; then pg_regress (gpu mode).
cd "$(dirname "$0")/.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source test/lib/gpu-box-steps.sh
T0=$(date +%s); left() { echo $(( 560 - ($(date +%s) - T0) )); }
OTHERS=".gpu-box/other-main .gpu-box/other-chain"; branch_trees
( make -s -j16 -C test/device CUDA_ARCHS=90 > $OUT/selftest-build.log 2>&1; echo "selftest build rc=$?" ) &
for t in "$PWD" "${BRANCH_TREES[@]}"; do
  ( make -s -j16 -C "$t/test/kernelbench" CUDA_ARCHS=90 > "$OUT/kb-build-$(basename $t).log" 2>&1; echo "kb build $(basename $t) rc=$?" ) &
done
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1; make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > $OUT/ext-build.log 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick > $OUT/selftest.log 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 $OUT/selftest.log)"; grep -E "^FAIL" $OUT/selftest.log | head
grep -cE "^ok.*lean" $OUT/selftest.log
kb_ab_rounds 1 35 "--keys 4 --payloads 1,4 --dists uniform,zipf1.5 --log2-groups 0:12:2 --methods shared_hash,auto --bw-gib 1" "$PWD" "${BRANCH_TREES[@]}"
echo "ab done at $(( $(date +%s) - T0 )) s; left $(left) s"
if [ "$(left)" -gt 90 ]; then
  t0=$(date +%s)
  OUT=$OUT/regress timeout $(( $(left) - 10 )) bash test/gpu-box.sh regress > "$OUT/regress.log" 2>&1
  echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$OUT/regress.log" | tail -2)"
fi
echo "total $(( $(date +%s) - T0 )) s"

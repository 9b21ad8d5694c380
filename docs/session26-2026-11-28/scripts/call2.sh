#!/usr/bin/env bash
# Session 26, call 2 (tree: deferred cold rows + exact partial lean plan; OTHERS main and
# defer-only).  Builds; self-test --quick; kernel A/B of the three trees, 2 rounds, 4-byte keys,
# 1 and 4 payloads, uniform / Zipf 1.0 / Zipf 1.5, 2^10-2^26 groups.
#   run(command="bash docs/session26-2026-11-28/scripts/call2.sh", carry=[".gpu-box"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/gpugb-call2}; mkdir -p "$OUT"
source test/lib/gpu-box-steps.sh
T0=$(date +%s); left() { echo $(( 570 - ($(date +%s) - T0) )); }
OTHERS=".gpu-box/other-main .gpu-box/other-defer"; branch_trees
( make -s -j16 -C test/device CUDA_ARCHS=90 > $OUT/selftest-build.log 2>&1; echo "selftest build rc=$?" ) &
for t in "$PWD" "${BRANCH_TREES[@]}"; do
  ( make -s -j16 -C "$t/test/kernelbench" CUDA_ARCHS=90 > "$OUT/kb-build-$(basename $t).log" 2>&1; echo "kb build $(basename $t) rc=$?" ) &
done
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick > $OUT/selftest.log 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 $OUT/selftest.log)"; grep -E "^FAIL" $OUT/selftest.log | head
grep -E "lean partial" $OUT/selftest.log | grep -E "\[(shared_hash|auto)\]" | cut -c1-200
kb_ab_rounds 2 60 "--keys 4 --payloads 1,4 --dists uniform,zipf1.0,zipf1.5 --log2-groups 10:26:2 --methods shared_hash,auto,sort,global_hash --bw-gib 1" "$PWD" "${BRANCH_TREES[@]}" > $OUT/ab.log 2>&1
grep -E "rc=" $OUT/ab.log | head -8
echo "ab done at $(( $(date +%s) - T0 )) s; left $(left) s"
cd $OUT && tar czf call2.tgz kb-*.csv kb-*.log kb-*.md ab*.md ab.log selftest.log 2>/dev/null && rm -f kb-*.csv kb-*.log kb-*.md
echo "total $(( $(date +%s) - T0 )) s"

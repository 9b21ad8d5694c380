#!/usr/bin/env bash
# Session 32, call 4, from the repository root on the GPU box, carrying only the HEAD file:
#   run(command="bash docs/session32-2026-11-29/scripts/call4.sh", carry=[".gpu-box/HEAD"], timeout_s=600)
#  - the whole self-test with the lean partition kernel (cuda/partition_lean_kernel.cuh), which
#    forced PARTITION must run wherever a case's shape and rows a group call for it;
#  - A/B in one run: the lean partition kernel against the generic one, both over moved rows
#    (--partition-lean off), one payload, 4- and 8-byte keys, uniform and Zipf 1.0;
#  - the full kernel grid with auto's new PARTITION choice (one sum, 64 rows a group).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s32-call4}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 170 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
echo "cases with lean partition launches: $(grep -c -E 'moved launches \([1-9]' "$O/selftest.log")"
grep -E 'moved launches \([1-9]' "$O/selftest.log" | head -3 | cut -c1-160
kb() { CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 --keys 4,8 --payloads 1 \
  --dists uniform,zipf1.0 --log2-groups 14:26:2 --methods partition "$@"; }
for v in off on; do
  kb --partition-lean $v --csv "$O/lean-$v.csv" --md "$O/lean-$v.md" > "$O/lean-$v.log" 2>&1
  echo "partition-lean $v rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/lean-$v.md")"
done
echo "generic / lean (both over moved rows):"
python3 test/kernelbench/ab_table.py "$O/lean-off.csv" "$O/lean-on.csv" | tee "$O/lean-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
left=$(( 585 - ($(date +%s) - T0) ))
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout $(( left - 5 )) test/bin/kernelbench --reps 1 --max-seconds $(( left - 20 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
sed -n '/^Missed: auto within 20/,/^Missed: best/p' "$O/grid.md" | grep "^- "
gzip -9 "$O"/*.log
cd "$O" && tar czf call4.tgz ./*.gz ./*.csv ./*.md 2>/dev/null && rm -f ./*.gz ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"

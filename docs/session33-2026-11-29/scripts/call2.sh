#!/usr/bin/env bash
# Session 33, call 2, from the repository root on the GPU box. The binaries are built on the
# development machine (make -C test/kernelbench CUDA_ARCHS=90 all; make -C test/device
# CUDA_ARCHS=90), test/bin/kernelbench-base at the session's base commit 05823a3, and carried
# packed (the three binaries with the tracked files exceed the device tool's 64 MiB):
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/kernelbench-base test/bin/device_selftest
#   run(command="bash docs/session33-2026-11-29/scripts/call2.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
#  - the whole self-test (auto), and with PARTITION and SHARED_HASH forced: the group ids taken
#    by coalesced lanes (cuda/hash_table.cuh, gpugb_take_group_id), the lean kernels' inputs
#    loaded a step ahead (cuda/lean_fast_kernel.cuh, gpugb_lean_fast_rows), 12-byte moved rows by
#    default;
#  - A/B in one run against the base commit's benchmark: one payload, 4- and 8-byte keys,
#    uniform and Zipf 1.0, 2^12-2^24 groups, the strategies these touch and auto;
#  - the full kernel grid, as time allows.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s33-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 170 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
echo "cases with lean partition launches: $(grep -c -E 'moved launches \([1-9]' "$O/selftest.log")"
for s in partition shared_hash; do
  t0=$(date +%s)
  timeout 90 test/bin/device_selftest --require-gpu --quick --strategy $s > "$O/selftest-$s.log" 2>&1
  echo "selftest --strategy $s rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$s.log")"
  grep -E "^FAIL" "$O/selftest-$s.log" | head -5
done
for v in base new; do
  b=test/bin/kernelbench; [ $v = base ] && b=test/bin/kernelbench-base
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 100 $b --bw-gib 1 --max-seconds 90 --keys 4,8 --payloads 1 \
    --dists uniform,zipf1.0 --log2-groups 12:24:2 --methods partition,shared_hash,global_hash,auto \
    --csv "$O/ab-$v.csv" --md "$O/ab-$v.md" > "$O/ab-$v.log" 2>&1
  echo "A/B $v rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/ab-$v.md")"
done
echo "base / new:"
python3 test/kernelbench/ab_table.py "$O/ab-base.csv" "$O/ab-new.csv" | tee "$O/ab.md" | grep -E "^\|"
left=$(( 585 - ($(date +%s) - T0) ))
if [ $left -gt 270 ]; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout $(( left - 5 )) test/bin/kernelbench --reps 1 --max-seconds $(( left - 20 )) \
    --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
  echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
  sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
  grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
else
  echo "full grid skipped: $left s left"
fi
gzip -9 "$O"/*.log
cd "$O" && tar czf call2.tgz ./*.gz ./*.csv ./*.md 2>/dev/null && rm -f ./*.gz ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"

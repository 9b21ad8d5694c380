#!/usr/bin/env bash
# Session 36, call 2 (about 8 minutes): 8-byte keys' moved rows stay packed by default (session 35's
# experiment spec.partition_packed_wide_keys, now without the flag), and auto takes the lean partition
# for two to four sums over them as it does for int32 keys.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session36-2026-11-29/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
# Then here: python3 test/kernelbench/plot.py grid.csv grid.png
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s36-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
# 1. Every case with PARTITION forced: cases 113-118 (8-byte keys, one to four sums, retries) now packed.
t0=$(date +%s)
timeout 125 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
rc=$?
echo "selftest --strategy partition rc=$rc ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log" | cut -c1-200)"
echo "  $(grep -c '^ok' "$O/selftest-partition.log") ok, $(grep -c '^FAIL' "$O/selftest-partition.log") FAIL"
grep -E "^FAIL" "$O/selftest-partition.log" | head -5 | cut -c1-300
grep -E "packed wide" "$O/selftest-partition.log" | sed -E 's/^(ok|FAIL) +\[partition\] //' | cut -c1-300
if grep -q "^FAIL" "$O/selftest-partition.log"; then
  echo "a self-test case failed: no benchmark"; gzip -9 "$O"/*.log; exit 1
fi
# 2. The full grid (issue 3, item 5).
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 280 test/bin/kernelbench --reps 1 --max-seconds 260 \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/grid.md")"
sed -n '/^## Targets/,$p' "$O/grid.md" | grep -E "^\|" | head -8
# 3. 8-byte keys with two and three payloads (the grid has one and four), every method.
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 80 test/bin/kernelbench --bw-gib 1 --max-seconds 65 --keys 8 --payloads 2,3 \
  --dists uniform,zipf0.5,zipf1.0 --log2-groups 18:24:2 --csv "$O/wide23.csv" --md "$O/wide23.md" > "$O/wide23.log" 2>&1
echo "8-byte keys, 2-3 payloads rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/wide23.md")"
# 4. The A/B baseline path for the packed shapes.
t0=$(date +%s)
timeout 45 test/bin/device_selftest --require-gpu --quick --strategy partition --partition-unpacked --only "packed" \
  > "$O/selftest-unpacked.log" 2>&1
echo "selftest --strategy partition --partition-unpacked --only packed rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-unpacked.log" | cut -c1-120)"
echo "  $(grep -c '^ok' "$O/selftest-unpacked.log") ok, $(grep -c '^FAIL' "$O/selftest-unpacked.log") FAIL"
grep -E "^FAIL" "$O/selftest-unpacked.log" | head -5 | cut -c1-300
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"

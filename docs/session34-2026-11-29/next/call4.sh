#!/usr/bin/env bash
# Session 34, call 4 (about 6 minutes), with the binaries built here at HEAD and carried packed:
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest
#   run(command="bash docs/session34-2026-11-29/next/call4.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
# The lean partition kernel from 16 rows a key (GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY, was 32),
# in the executor and in auto's choice: the self-test with PARTITION forced and whole, then the
# grid's points it can change (0 and 1 payloads, 2^22-2^26 groups, every key width and
# distribution; every strategy but private_hash, which is never the best there).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s34-call4}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 80 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log")"
grep -E "^FAIL" "$O/selftest-partition.log" | head -5
t0=$(date +%s)
timeout 200 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 150 test/bin/kernelbench --bw-gib 1 --max-seconds 135 --keys 4,8 --payloads 0,1 \
  --dists uniform,zipf0.5,zipf1.0,zipf1.5 --log2-groups 22:26:2 --methods global_hash,shared_hash,sort,partition,auto \
  --csv "$O/grid-high.csv" --md "$O/grid-high.md" > "$O/grid-high.log" 2>&1
echo "grid 2^22-2^26 rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/grid-high.md")"
grep -E "^\| (auto|best)" "$O/grid-high.md"
gzip -9 "$O"/*.log
cd "$O" && tar czf call4.tgz ./*.gz ./*.csv ./*.md 2>/dev/null && rm -f ./*.gz ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"

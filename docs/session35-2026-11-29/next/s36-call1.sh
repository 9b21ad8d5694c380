#!/usr/bin/env bash
# Session 36, call 1 (about 8 minutes): what session 35 committed after its last GPU call (41d19cb):
# self-test cases 110-112 (four and three packed sums, 24- and 16-byte rows, retries through the
# unpack), the reference's sums of in1 and in3 (narrow_in13), and sort's wide-states rule yielding
# to the lean partition only for packed sums (c402d85: no kernel benchmark point changes).
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest   (after both builds end)
#   git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session35-2026-11-29/next/s36-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
# Then the PostgreSQL path (pgTAP 04_shapes now checks three int4 sums, packed on the device with
# partition forced): bash docs/session34-2026-11-29/next/call2.sh with the debs carry; and a full
# grid: bash docs/session35-2026-11-29/next/call3.sh.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s36-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 80 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log")"
grep -E "^FAIL" "$O/selftest-partition.log" | head -5 | cut -c1-300
grep -E "(three|four) narrow sums" "$O/selftest-partition.log" | cut -c1-330
t0=$(date +%s)
timeout 45 test/bin/device_selftest --require-gpu --quick --strategy partition --partition-unpacked --only "narrow sum" \
  > "$O/selftest-partition-unpacked.log" 2>&1
echo "selftest --strategy partition --partition-unpacked --only 'narrow sum' rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition-unpacked.log")"
grep -E "^FAIL" "$O/selftest-partition-unpacked.log" | head -5 | cut -c1-300
t0=$(date +%s)
timeout 220 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5 | cut -c1-300
# The experiment spec.partition_packed_wide_keys (session 35): 8-byte keys' moved rows stay packed for the
# lean kernel, with one to four sums (cases 113-118 and every partition case under the option), and
# its A/B, forced PARTITION, 8-byte keys.
t0=$(date +%s)
timeout 80 test/bin/device_selftest --require-gpu --quick --strategy partition --partition-packed-wide \
  > "$O/selftest-partition-wide.log" 2>&1
echo "selftest --strategy partition --partition-packed-wide rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition-wide.log")"
grep -E "^FAIL" "$O/selftest-partition-wide.log" | head -5 | cut -c1-300
grep -E "packed wide" "$O/selftest-partition-wide.log" | cut -c1-330
for w in off on; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 --keys 8 --payloads 0,1,2,4 \
    --dists uniform,zipf1.0 --log2-groups 20:24:2 --methods partition --partition-packed-wide $w \
    --csv "$O/wide-$w.csv" --md "$O/wide-$w.md" > "$O/wide-$w.log" 2>&1
  echo "packed wide $w rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/wide-$w.md")"
done
python3 test/kernelbench/ab_table.py "$O/wide-off.csv" "$O/wide-on.csv" | grep -E "^\|"
grep -E "^    partition" "$O/wide-on.log" | head -3 | cut -c1-200
# Host time in cudaMalloc/cudaFree within the timed part (c. 12 GB of PARTITION scratch at 2^28
# rows; session 34's kernels summed 11.4 of 13.3 ms at 2^22 groups): the log's "alloc X ms".
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 50 test/bin/kernelbench --bw-gib 1 --max-seconds 40 --keys 4,8 --payloads 1,4 \
  --dists uniform --log2-groups 20:24:2 --methods sort,partition,auto \
  --csv "$O/alloc.csv" --md "$O/alloc.md" > "$O/alloc.log" 2>&1
echo "alloc rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/alloc.md")"
grep -E "^  [48]-byte|^    (sort|partition|auto) " "$O/alloc.log" | sed -E 's/ +create.*//' | cut -c1-200
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 34, call 5 (about 2 minutes; the session's last 250 s of GPU time), binaries built here:
#   run(command="bash docs/session34-2026-11-29/next/call5.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=170)
# The lean partition kernel from 8 rows a key (call 4: at 16 the run-time check's estimate left
# 2^24 on sort or the generic kernel), and before the partial table beyond 3x L2 for a 5 % group:
# the self-test with PARTITION forced, then auto against the strategies it chooses among at the
# points the rules change (0 and 1 payloads, 2^22 and 2^24 groups, uniform, Zipf 0.5 and 1.0).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s34-call5}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 70 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log")"
grep -E "^FAIL" "$O/selftest-partition.log" | head -5
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 75 test/bin/kernelbench --bw-gib 1 --max-seconds 65 --keys 4,8 --payloads 0,1 \
  --dists uniform,zipf0.5,zipf1.0 --log2-groups 22:24:2 --methods shared_hash,sort,partition,auto \
  --csv "$O/auto-high.csv" --md "$O/auto-high.md" > "$O/auto-high.log" 2>&1
echo "auto 2^22-2^24 rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/auto-high.md")"
grep -E "^\| (auto|best)" "$O/auto-high.md"
gzip -9 "$O"/*.log
cd "$O" && tar czf call5.tgz ./*.gz ./*.csv ./*.md 2>/dev/null && rm -f ./*.gz ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"

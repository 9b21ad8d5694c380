#!/usr/bin/env bash
# Session 44's fifth call: main after the scatter's merge (4e78ec2), built as test/bin/s44main:
# 1. the whole device self-test;
# 2. the kernel benchmark at 2^18-2^22 groups, every shape and distribution, every strategy but
#    private_hash, 3 reps, for issue 3's targets (merged over session 40's grid and session 43's upper half).
#   run(command="bash docs/session44-2026-11-30/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins5.tar.xz"], timeout_s=420)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s44-call5}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins5.tar.xz || exit 1
t0=$(date +%s)
timeout 220 test/bin/s44main/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-all.log"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 150 test/bin/s44main/kernelbench --bw-gib 1 --max-seconds 145 --reps 3 \
  --keys 4,8 --payloads 1,4 --log2-groups 18:22:2 --dists uniform,zipf0.5,zipf1.0,zipf1.5 \
  --methods global_hash,shared_hash,sort,partition,auto --csv "$O/grid-mid.csv" --md "$O/grid-mid.md" > "$O/grid-mid.log" 2>&1
echo "kernelbench grid-mid rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/grid-mid.md")"
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s44-call5.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

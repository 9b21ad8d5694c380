#!/usr/bin/env bash
# Session 45's fifth call: branch s45-gid (SHARED_HASH's block table indexed by group id, planned by auto),
# built as test/bin/s45gid2 (.gpu-box/bins-s45-5.tar.xz):
# 1. the whole device self-test (--quick), with the ten new "lean gid" cases;
# 2. the kernel benchmark at 2^10-2^16 groups by 2 and 2^13, 2^15 (global_hash, shared_hash, partition, auto),
#    every shape and distribution, 3 reps; then shared_hash and auto again with --lean-gid-table off, the A/B.
#   run(command="bash docs/session45-2026-11-30/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s45-5.tar.xz"], timeout_s=560)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s45-call5}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s45-5.tar.xz || exit 1
B=test/bin/s45gid2
t0=$(date +%s)
timeout 250 $B/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-all.log" | head -12 | cut -c1-300
grep -E "lean gid" "$O/selftest-all.log" | grep -E "^\S+ +\[(shared_hash|auto)\]" | cut -c1-220 | head -24
kb() {	# name, seconds, options...
  local name=$1 secs=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout $(( secs + 5 )) $B/kernelbench --bw-gib 1 --max-seconds $secs --reps 3 \
    --keys 4,8 --payloads 1,4 --dists uniform,zipf0.5,zipf1.0,zipf1.5 --log2-groups 10:16:1 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
kb lo-on 150 --methods global_hash,shared_hash,partition,auto
kb lo-off 110 --methods shared_hash,auto --lean-gid-table off
echo "== shared_hash and auto: gid table off -> on"
python3 test/kernelbench/ab_table.py "$O/lo-off.csv" "$O/lo-on.csv" | grep -E "^\|"
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s45-call5.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

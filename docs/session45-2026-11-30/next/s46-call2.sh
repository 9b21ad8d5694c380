#!/usr/bin/env bash
# Session 46's second call (written in session 45): main at 4902f9f or later, built as test/bin/s46
# (.gpu-box/bins-s46.tar.xz; rebuild with make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s46 and
# make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s46 if main's device code changed since):
# 1. the whole device self-test (--quick): session 45 mended its gid-table assertions after call 6 (host-only
#    test logic, 2f9bbce, 0ed2d23) and has two more gid cases (call 6: 714 cases; 726 expected), 0 failed;
# 2. the kernel benchmark at 2^10-2^16 by 1, the same four methods with the table indexed by group id on and
#    off, 3 reps: whether auto's 0.95-0.97x at four payloads, Zipf 1.0, 2^13-2^16 (calls 5 and 6, where the
#    table is not taken) was run order (those runs had different method lists).
#   run(command="bash docs/session45-2026-11-30/next/s46-call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s46.tar.xz"], timeout_s=500)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s46-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s46.tar.xz || exit 1
B=test/bin/s46
t0=$(date +%s)
timeout 250 $B/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-all.log" | head -12 | cut -c1-300
kb() {	# name, seconds, options...
  local name=$1 secs=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout $(( secs + 5 )) $B/kernelbench --bw-gib 1 --max-seconds $secs --reps 3 \
    --keys 4,8 --payloads 1,4 --dists uniform,zipf0.5,zipf1.0,zipf1.5 --log2-groups 10:16:1 \
    --methods global_hash,shared_hash,partition,auto --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
kb lo-off 100 --lean-gid-table off
kb lo-on 100
echo "== gid table off -> on, the same methods in the same order"
python3 test/kernelbench/ab_table.py "$O/lo-off.csv" "$O/lo-on.csv" | grep -E "^\|"
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s46-call2.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 42, call 7 (about 2 minutes, the session's last 246 s of device time): s42-deferred-gids after
# call 6's failure (static shared memory broke the launch's opt-in; the block words are in the table now):
# 1. the self-test's PARTITION cases with the branch's build;
# 2. forced PARTITION and auto, main (39a63a1) against the branch, 4-byte keys, one payload, 2^16-2^24,
#    uniform and Zipf 1.0, one rep;
# 3. the branch at a group estimate 100 times too low (the retry path), verified (call 6 has main's).
#   run(command="bash docs/session42-2026-11-30/next/s42-call7.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=170)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s42-call7}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 70 test/bin/deferred/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition (branch) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-partition.log"
grep -E "^FAIL" "$O/selftest-partition.log" | head -6 | cut -c1-300
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 30 "$bin" --bw-gib 1 --max-seconds 25 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
for side in main deferred; do
  bin=test/bin/kernelbench-a; [ $side = deferred ] && bin=test/bin/deferred/kernelbench
  kb $side $bin --reps 1 --keys 4 --payloads 1 --log2-groups 16:24:2 --dists uniform,zipf1.0 --methods partition,auto
done
echo "== main -> deferred"; python3 test/kernelbench/ab_table.py "$O/main.csv" "$O/deferred.csv" | grep -E "^\|"
kb low-deferred test/bin/deferred/kernelbench --reps 1 --keys 4 --payloads 1 --log2-groups 20,22 --dists uniform,zipf1.0 \
  --methods partition --estimate-scale 0.01
grep -E "^    partition" "$O/low-deferred.log" | cut -c1-200
gzip -9 "$O"/*.log "$O"/*.csv 2>/dev/null
cd "$O" && tar czf s42-call7.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

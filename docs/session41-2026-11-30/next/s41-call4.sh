#!/usr/bin/env bash
# Session 41, call 4 (about 4 minutes), branch s41-scatter: main + the overflow flag read every 8 warp
# steps by default (GPUGB_OVERFLOW_CHECK_STEPS 8) + the scatter's build options for rows wider than
# 8 bytes (cuda/partition_scatter.cuh).  Binaries (test/bin/...):
#   kernelbench, device_selftest              the branch's default build
#   wideA/kernelbench, wideA/device_selftest  -DGPUGB_SCATTER_WIDE_MIN_BLOCKS=2 (512 threads, 64 registers, 2 blocks an SM)
#   wideB/kernelbench, wideB/device_selftest  -DGPUGB_SCATTER_WIDE_ROWS=4 (1024 threads, 64 registers, 1 block an SM)
#   kernelbench-s1                            053e2f7's kernelbench: the flag read every step
#  1. the self-test's scattered PARTITION cases with each build;
#  2. forced PARTITION at 2^16-2^22 (where the scatter applies), 4- and 8-byte keys, one and four
#     payloads, uniform and Zipf 1.0, with each build (4-byte keys with one payload are 8-byte rows,
#     the same kernel in all three: the control);
#  3. the flag every 8 steps against every step at 2^24, three reps (call 1 had 0.89x at 4-byte
#     keys, one payload, uniform, where the rest were 1.00-1.07x).
#   run(command="bash docs/session41-2026-11-30/next/s41-call4.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=420)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s41-call4}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 400 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
for b in base wideA wideB; do
  d=test/bin; [ $b = base ] || d=test/bin/$b
  t0=$(date +%s)
  timeout 100 $d/device_selftest --require-gpu --quick --strategy partition --only "partition scattered" > "$O/selftest-$b.log" 2>&1
  echo "selftest $b rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$b.log" | cut -c1-160)"
  grep -E "^cases with scattered" "$O/selftest-$b.log"
  grep -E "^FAIL" "$O/selftest-$b.log" | head -4 | cut -c1-300
done
kb() {	# name, binary, limit, options...
  local name=$1 bin=$2 limit=$3 t0=$(date +%s); shift 3
  [ "$(left)" -gt $(( limit + 10 )) ] || { echo "kernelbench $name skipped (time)"; return; }
  CUDA_MODULE_LOADING=EAGER timeout "$limit" "$bin" --bw-gib 1 --max-seconds $(( limit - 10 )) \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
ab() { [ -f "$O/$1.csv" ] && [ -f "$O/$2.csv" ] && python3 test/kernelbench/ab_table.py "$O/$1.csv" "$O/$2.csv" | grep -E "^\|"; }
for b in base wideA wideB; do
  bin=test/bin/kernelbench; [ $b = base ] || bin=test/bin/$b/kernelbench
  kb scatter-$b $bin 70 --reps 1 --log2-groups 16:22:2 --dists uniform,zipf1.0 --methods partition
  grep -cE " [1-9][0-9]* scattered" "$O/scatter-$b.log" | sed 's/^/  runs with a scattered launch: /'
done
echo "== base -> wideA"; ab scatter-base scatter-wideA
echo "== base -> wideB"; ab scatter-base scatter-wideB
kb steps1 test/bin/kernelbench-s1 50 --reps 3 --log2-groups 24 --dists uniform,zipf0.5 --payloads 1 --methods partition
kb steps8 test/bin/kernelbench 50 --reps 3 --log2-groups 24 --dists uniform,zipf0.5 --payloads 1 --methods partition
ab steps1 steps8
gzip -9 "$O"/*.log "$O"/*.csv 2>/dev/null
cd "$O" && tar czf s41-call4.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

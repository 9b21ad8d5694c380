#!/usr/bin/env bash
# Session 43's first call (about 4 minutes; written in session 42, whose device time ran out): the branch
# s42-deferred-gids, PARTITION's lean kernel with group ids looked up at the flush
# (cuda/partition_deferred.cuh), in two versions, neither run yet:
#   v1 (a81ac96): test/bin/deferred/       two barriers a 4096-row chunk, no load-ahead
#   v2 (99687e5): test/bin/deferred2/      one barrier a chunk, each warp's next row loaded a step ahead
# against main (39a63a1): test/bin/kernelbench-a.  (Session 42's call 6 ran v0, which failed at launch: static
# shared memory made the lean launch's opt-in invalid; v1 fixed that.)
# 1. the self-test's PARTITION cases with v1 and v2;
# 2. forced PARTITION and auto, main against v1 and v2, 4-byte keys, one payload (the rows it changes),
#    2^16-2^24, uniform and Zipf 1.0, one rep;
# 3. v2 at a group estimate 100 times too low (the retry path; call 6 has main's times), verified;
# 4. main and v2 with the lean kernel from 2 rows a key at 2^24-2^26 (--partition-lean-rows 2).
#   run(command="bash docs/session42-2026-11-30/next/s42-call7.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=300)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s42-call7}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
for v in deferred deferred2; do
  t0=$(date +%s)
  timeout 90 test/bin/$v/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition-$v.log" 2>&1
  echo "selftest --strategy partition ($v) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition-$v.log" | cut -c1-160)"
  grep -E "^cases with" "$O/selftest-partition-$v.log"
  grep -E "^FAIL" "$O/selftest-partition-$v.log" | head -6 | cut -c1-300
done
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 40 "$bin" --bw-gib 1 --max-seconds 35 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
for side in main deferred deferred2; do
  bin=test/bin/kernelbench-a; [ $side != main ] && bin=test/bin/$side/kernelbench
  kb $side $bin --reps 1 --keys 4 --payloads 1 --log2-groups 16:24:2 --dists uniform,zipf1.0 --methods partition,auto
done
for v in deferred deferred2; do
  echo "== main -> $v"; python3 test/kernelbench/ab_table.py "$O/main.csv" "$O/$v.csv" | grep -E "^\|"
done
# 4. the lean kernel at 4 rows a key (2^26), where forced PARTITION takes the generic kernel (48.9 ms of
#    about 63, call 5): --partition-lean-rows 2 lets the lean kernel run there, main's and v2's.
for side in main deferred2; do
  bin=test/bin/kernelbench-a; [ $side != main ] && bin=test/bin/$side/kernelbench
  kb lean26-$side $bin --reps 1 --keys 4 --payloads 1 --log2-groups 24,26 --dists uniform,zipf1.0 \
    --methods partition --partition-lean-rows 2
  grep -E "^    partition" "$O/lean26-$side.log" | cut -c1-200
done
echo "== main -> v2, lean from 2 rows a key"; python3 test/kernelbench/ab_table.py "$O/lean26-main.csv" "$O/lean26-deferred2.csv" | grep -E "^\|"
kb low-deferred2 test/bin/deferred2/kernelbench --reps 1 --keys 4 --payloads 1 --log2-groups 20,22 \
  --dists uniform,zipf1.0 --methods partition --estimate-scale 0.01
grep -E "^    partition" "$O/low-deferred2.log" | cut -c1-220
gzip -9 "$O"/*.log "$O"/*.csv 2>/dev/null
cd "$O" && tar czf s42-call7.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

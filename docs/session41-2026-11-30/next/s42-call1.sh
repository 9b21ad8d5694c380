#!/usr/bin/env bash
# Session 42, call 1 (about 5 minutes), from the branch s42-packer-hash (three commits on main, not run on
# a GPU): (a) PARTITION's row packer hashes the launch's one non-NULL key directly (cuda/move_row.cuh), not
# through gpugb_hash_row's loop and NULL checks (the scatter's count kernel: 334 PTX instructions to 85);
# (b) the count kernel unrolls a thread's rows so that their loads are in flight at once; (c) the build
# option GPUGB_PROBE_SCRATCH_WHOLE (off by default): auto's probe launch sizes PARTITION's scratch for
# the launch after it too (cuda/sort_strategy.cu).
# Binaries (.gpu-box/bins.tar.xz, built on the dev machine; see pending/next-steps.md section 0):
#   test/bin/kernelbench, test/bin/device_selftest   the branch, (a) and (b)
#   test/bin/kernelbench-hash                         (a) only
#   test/bin/kernelbench-main                         main (3185bf9's sm_90 code)
#   test/bin/probe/kernelbench                        the branch with -DGPUGB_PROBE_SCRATCH_WHOLE=1
#  1. the self-test's PARTITION cases with the branch (138 cases; 7 scattered, 24 overflowed);
#  2. forced PARTITION, main against (a) and against (a)+(b), 2^16-2^24, both key widths, one and four
#     payloads, uniform and Zipf 0.5;
#  3. Nsight Compute, every kernel's time, at the nearest 3x miss (4-byte keys, one payload, 2^22);
#  4. auto's allocations against forced PARTITION's at four payloads, 2^20 (main's build, then (c)):
#     --alloc-trace names the buffers auto's check launch and main launch allocate;
#  5. auto with and without (c), 2^18-2^24, where auto takes PARTITION.
#   run(command="bash docs/session41-2026-11-30/next/s42-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=500)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s42-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-partition.log"
grep -E "^FAIL" "$O/selftest-partition.log" | head -6 | cut -c1-300
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 60 "$bin" --bw-gib 1 --max-seconds 50 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
for side in main hash branch; do
  bin=test/bin/kernelbench; [ $side = branch ] || bin=test/bin/kernelbench-$side
  kb partition-$side $bin --reps 1 --log2-groups 16:24:2 --dists uniform,zipf0.5 --methods partition
done
echo "== main -> (a) the hash"; python3 test/kernelbench/ab_table.py "$O/partition-main.csv" "$O/partition-hash.csv" | grep -E "^\|"
echo "== main -> (a)+(b) the branch"; python3 test/kernelbench/ab_table.py "$O/partition-main.csv" "$O/partition-branch.csv" | grep -E "^\|"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 90 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb_|DeviceRadixSort" \
  test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 22 --methods partition --reps 1 \
  --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-k4-p1-uniform-g22.csv" 2> "$O/ncu.err"
echo "== ncu branch, 4-byte keys, one payload, uniform, 2^22 rc=$? ($(( $(date +%s) - t0 )) s); halve for one launch"
python3 test/kernelbench/ncu_phases.py --by-kernel "$O/ncu-k4-p1-uniform-g22.csv"
kb alloc-trace test/bin/kernelbench-main --reps 1 --keys 4,8 --payloads 4 --dists uniform --log2-groups 20 \
  --methods auto,partition --alloc-trace on
grep -E "alloc trace|^    (auto|partition) " "$O/alloc-trace.log" | cut -c1-200 | head -40
kb alloc-trace-probe test/bin/probe/kernelbench --reps 1 --keys 4,8 --payloads 4 --dists uniform --log2-groups 20 \
  --methods auto,partition --alloc-trace on
grep -E "alloc trace|^    (auto|partition) " "$O/alloc-trace-probe.log" | cut -c1-200 | head -40
for side in branch probe; do
  bin=test/bin/kernelbench; [ $side = probe ] && bin=test/bin/probe/kernelbench
  kb auto-$side $bin --reps 1 --log2-groups 18:24:2 --dists uniform,zipf0.5 --methods auto,partition
done
echo "== (c): auto without -> with"; python3 test/kernelbench/ab_table.py "$O/auto-branch.csv" "$O/auto-probe.csv" | grep -E "^\|"
gzip -9 "$O"/*.log "$O"/*.csv "$O"/*.err 2>/dev/null
cd "$O" && tar czf s42-call1.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 49, call 2: 2-byte partitions for CUB's sort of packed rows (branch narrow-keys, spec.partition_wide_sort_keys
# turns it off), with the publish's count of directly numbered groups (branch direct-count), binaries s49n
# (kernelbench) and s49nd (device_selftest) built from the narrow-keys work tree:
# 1. the self-test's PARTITION quick set, by default and under --partition-cub-sort (every packed launch sorts, so
#    every one must sort 2-byte partitions), and the whole self-test as time allows (call 1's was stopped at 240 s);
# 2. kernel benchmark A/B: --partition-narrow-keys off then on, partition and auto, 2^18-2^26 groups, 3 reps;
# 3. Nsight Compute in launch order at 2^24 (one payload) and 2^22 (four).
#   tar cJf .gpu-box/bins-s49n.tar.xz test/bin/s49n/kernelbench test/bin/s49nd/device_selftest
#   run(command="bash docs/session49-2026-11-30/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s49n.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s49-call2}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( ${CALL_SECONDS:-575} - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s49n.tar.xz || exit 1
st() {	# name, timeout, options...
  local name=$1 limit=$2 t0=$(date +%s); shift 2
  timeout $limit test/bin/s49nd/device_selftest --require-gpu "$@" > "$O/selftest-$name.log" 2>&1
  echo "selftest $name rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$name.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/selftest-$name.log" | head -8 | cut -c1-300
  grep -E "^cases with (sorts|scattered|a direct)" "$O/selftest-$name.log"
}
st partition 150 --quick --strategy partition
st partition-cub 150 --quick --strategy partition --partition-cub-sort
kb() {	# name, options...
  local name=$1 t0=$(date +%s); shift
  CUDA_MODULE_LOADING=EAGER timeout 100 test/bin/s49n/kernelbench --bw-gib 1 --max-seconds 90 --reps 3 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
}
G="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 18:26:2 --dists uniform,zipf1.0"
kb wide $G --partition-narrow-keys off
kb narrow $G
echo "== --partition-narrow-keys off -> on (time(off)/time(on): >1 means on is faster)"
python3 test/kernelbench/ab_table.py "$O/wide.csv" "$O/narrow.csv" | grep -E "^\|"
grep -oE "[0-9]+ sorts of 2-byte partitions\)" "$O/narrow.log" | sort | uniq -c | sed 's/^/runs: /'
grep -oE "[0-9]+ groups numbered directly" "$O/narrow.log" | sort | uniq -c | sed 's/^/runs: /' | head -12
ncu_order() {	# name, key bytes, payloads, log2 g
  local t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb|Radix|Onesweep|Histogram|Scan|Partition" \
    test/bin/s49n/kernelbench --keys $2 --payloads $3 --dists uniform --methods partition --reps 1 --bw-gib 1 --max-seconds 50 \
    --md /dev/null --log2-groups $4 > "$O/ncu-$1.csv" 2> "$O/ncu-$1.err"
  echo "== ncu in order, $1, rc=$? ($(( $(date +%s) - t0 )) s)"
  python3 test/kernelbench/ncu_phases.py --in-order "$O/ncu-$1.csv" | tail -12
}
ncu_order narrow-1p-24 4 1 24
ncu_order narrow-4p-22 4 4 22
[ "$(left)" -gt 60 ] && st all $(( $(left) - 25 ))
gzip -9 "$O"/*.log "$O"/*.err 2>/dev/null
cd "$O" && tar czf s49-call2.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md ./*.csv
echo "total $(( $(date +%s) - T0 )) s"

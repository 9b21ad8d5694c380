#!/usr/bin/env bash
# Session 41, call 1 (under 600 s): the branch s41-run-groups-coalesced (none of it run on a GPU),
# which sits on main as: the removal of spec.partition_overflow_walks_only, the experiments
# spec.sort_coalesced_claims and spec.partition_coalesced_claims, and the build option
# GPUGB_OVERFLOW_CHECK_STEPS.  Binaries (built on the dev machine, see pending/next-steps.md):
#   test/bin/kernelbench, test/bin/device_selftest   the branch
#   test/bin/kernelbench-main                         main, for the branch's effect on the default path
#   test/bin/kernelbench-steps8                       the branch with -DGPUGB_OVERFLOW_CHECK_STEPS=8
#  1. the self-test's PARTITION cases (the removal; 24 overflowed cases expected, as in session 40's
#     call 1), and the SORT and PARTITION cases with the coalesced claims;
#  2. the default path, main's build against the branch's: ptxas gives the branch's gpugb_agg_kernel
#     (GLOBAL_HASH's generic kernel) 20 bytes of spills where main's has none (the removal restores
#     da3fffe's code, which spilled the same), and the generic partition kernel 4/8 where main's has
#     12/12;
#  3. SORT and PARTITION with and without the coalesced claims at 2^16-2^26;
#  4. PARTITION, the flag read every 8 steps against every step, at 2^18-2^24.
#   run(command="bash docs/session40-2026-11-30/next/s41-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s41-call1}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 580 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
st() {	# name, options...
  local name=$1 t0=$(date +%s); shift
  timeout 150 test/bin/device_selftest --require-gpu --quick "$@" > "$O/selftest-$name.log" 2>&1
  echo "selftest $* rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$name.log" | cut -c1-160)"
  grep -E "^cases with" "$O/selftest-$name.log"
  grep -E "^FAIL" "$O/selftest-$name.log" | head -6 | cut -c1-400
}
kb() {	# name, binary, limit, options...
  local name=$1 bin=$2 limit=$3 t0=$(date +%s); shift 3
  [ "$(left)" -gt $(( limit + 10 )) ] || { echo "kernelbench $name skipped (time)"; return; }
  CUDA_MODULE_LOADING=EAGER timeout "$limit" "$bin" --bw-gib 1 --reps 1 --max-seconds $(( limit - 10 )) \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
ab() { [ -f "$O/$1.csv" ] && [ -f "$O/$2.csv" ] && python3 test/kernelbench/ab_table.py "$O/$1.csv" "$O/$2.csv" | grep -E "^\|"; }
st partition --strategy partition
st sort-coalesced --strategy sort --sort-coalesced-claims
st partition-coalesced --strategy partition --partition-coalesced-claims
# 2. main against the branch, the default path (no option): the methods whose kernels ptxas changed
for side in main branch; do
  bin=test/bin/kernelbench; [ $side = main ] && bin=test/bin/kernelbench-main
  kb default-$side $bin 70 --log2-groups 10,14,18,22 --dists uniform,zipf1.0 --payloads 1 \
    --methods global_hash,partition,sort
done
ab default-main default-branch
# 3. the coalesced claims
for v in off on; do
  kb coalesced-$v test/bin/kernelbench 90 --log2-groups 16:26:2 --dists uniform,zipf1.0 --methods sort,partition \
    --sort-coalesced-claims $v --partition-coalesced-claims $v
  grep -c "coalesced claims" "$O/coalesced-$v.log" 2>/dev/null | sed 's/^/  runs with coalesced claims: /'
done
ab coalesced-off coalesced-on
# 4. the flag every 8 steps
kb steps1 test/bin/kernelbench 60 --log2-groups 18:24:2 --dists uniform,zipf0.5 --methods partition
kb steps8 test/bin/kernelbench-steps8 60 --log2-groups 18:24:2 --dists uniform,zipf0.5 --methods partition
ab steps1 steps8
gzip -9 "$O"/*.log "$O"/*.csv 2>/dev/null
cd "$O" && tar czf s41-call1.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

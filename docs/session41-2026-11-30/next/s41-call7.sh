#!/usr/bin/env bash
# Session 41, call 7 (about 5 minutes): the experiment GPUGB_SCATTER_DIRECT (cuda/partition_scatter.cuh,
# a build option, default 0): rows written straight to their places, no staging, two 1024-thread
# blocks an SM.  Binaries: test/bin/kernelbench (3185bf9's code: the staged scatter), and
# test/bin/direct/{kernelbench,device_selftest} (-DGPUGB_SCATTER_DIRECT=1).
#  1. forced PARTITION at 2^16-2^22, staged against direct;
#  2. the self-test's PARTITION cases with the direct build (7 cases with scattered launches expected);
#  3. the grid's upper half (as call 6) with the direct build, as time allows.
#   run(command="bash docs/session41-2026-11-30/next/s41-call7.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=360)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s41-call7}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 330 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
kb() {	# name, binary, limit, options...
  local name=$1 bin=$2 limit=$3 t0=$(date +%s); shift 3
  [ "$(left)" -gt $(( limit + 5 )) ] || { echo "kernelbench $name skipped (time)"; return; }
  CUDA_MODULE_LOADING=EAGER timeout "$limit" "$bin" --bw-gib 1 --max-seconds $(( limit - 10 )) \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
ab() { [ -f "$O/$1.csv" ] && [ -f "$O/$2.csv" ] && python3 test/kernelbench/ab_table.py "$O/$1.csv" "$O/$2.csv" | grep -E "^\|"; }
kb staged test/bin/kernelbench 40 --reps 1 --log2-groups 16:22:2 --dists uniform,zipf1.0 --methods partition
kb direct test/bin/direct/kernelbench 40 --reps 1 --log2-groups 16:22:2 --dists uniform,zipf1.0 --methods partition
grep -cE " [1-9][0-9]* scattered" "$O/direct.log" | sed 's/^/  direct runs with a scattered launch: /'
ab staged direct
t0=$(date +%s)
timeout 150 test/bin/direct/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-direct.log" 2>&1
echo "selftest direct --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-direct.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-direct.log"
grep -E "^FAIL" "$O/selftest-direct.log" | head -6 | cut -c1-300
L=$(( $(left) - 5 ))
[ "$L" -gt 60 ] && kb grid-hi-direct test/bin/direct/kernelbench $L --reps 1 --log2-groups 16:26:2 --methods auto,global_hash,partition,sort
gzip -9 "$O"/*.log
cd "$O" && tar czf s41-call7.tgz ./*.log.gz ./*.md 2>/dev/null; rm -f ./*.log.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

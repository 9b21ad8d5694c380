#!/usr/bin/env bash
# Session 41, call 8 (about 3 minutes): the experiment GPUGB_SCATTER_NARROW_TILE=4096 (cuda/
# partition_scatter.cuh, a build option, default 8192): 8-byte rows (4-byte keys, one payload)
# scatter in 4096-row tiles of 512 threads, two blocks an SM, where 8192-row tiles of 1024 threads
# fit one.  Binaries: test/bin/kernelbench (3185bf9's code, the default) and
# test/bin/narrow/{kernelbench,device_selftest} (-DGPUGB_SCATTER_NARROW_TILE=4096).
#  1. forced PARTITION, 4-byte keys, one payload, 2^16-2^24, every distribution, three reps, each build;
#  2. the self-test's PARTITION cases with the narrow build (7 cases with scattered launches expected).
#   run(command="bash docs/session41-2026-11-30/next/s41-call8.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=230)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s41-call8}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 40 "$bin" --bw-gib 1 --max-seconds 30 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
  grep -cE " [1-9][0-9]* scattered" "$O/$name.log" | sed 's/^/  runs with a scattered launch: /'
}
for b in staged narrow; do
  bin=test/bin/kernelbench; [ $b = narrow ] && bin=test/bin/narrow/kernelbench
  kb $b $bin --reps 3 --keys 4 --payloads 1 --log2-groups 16:24:2 --methods partition
done
python3 test/kernelbench/ab_table.py "$O/staged.csv" "$O/narrow.csv" | grep -E "^\|"
t0=$(date +%s)
timeout 150 test/bin/narrow/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-narrow.log" 2>&1
echo "selftest narrow --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-narrow.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-narrow.log"
grep -E "^FAIL" "$O/selftest-narrow.log" | head -6 | cut -c1-300
gzip -9 "$O"/*.log
cd "$O" && tar czf s41-call8.tgz ./*.log.gz ./*.md 2>/dev/null; rm -f ./*.log.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

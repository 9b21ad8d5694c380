#!/usr/bin/env bash
# Session 39, call 1 (about 7 minutes): the self-tests of what session 38 committed after its last GPU
# call (276da9c):
#  - 3c2cdd0 stats (retry rounds, retry_ms, grow_ms; kernelbench prints them);
#  - the experiment spec.partition_overflow_abort (off by default): GpugbAggParams.overflow,
#    gpugb_probe's step bound (only where overflow is set) and gpugb_lean_fast_rows' flag check,
#    which every partition lean and one-block SHARED_HASH launch now compiles (ptxas: about 56
#    default kernels changed registers or spills);
#  - the experiment spec.observed_chao1 (off by default), and the check's count summary kernel
#    (gpugb_count_summary_kernel, was gpugb_max_kernel), which every auto check runs;
#  1. the whole self-test (the default path);
#  2. --strategy partition --partition-overflow-abort (cases 122, by no id left, and 123, a run of
#     keys across partitions' slices, must overflow);
#  3. --strategy auto --observed-chao1.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session38-2026-11-29/next/s39-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s39-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
selftest() {	# name, limit, options...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout "$limit" test/bin/device_selftest --require-gpu --quick "$@" > "$O/selftest-$name.log" 2>&1
  echo "selftest $* rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$name.log" | cut -c1-160)"
  grep -E "^cases with" "$O/selftest-$name.log"
  grep -E "^FAIL" "$O/selftest-$name.log" | head -8 | cut -c1-400
}
kb() {	# name, limit, options...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout "$limit" test/bin/kernelbench --bw-gib 1 --reps 1 --max-seconds $(( limit - 10 )) \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
  grep -E "^    [a-z_]+ " "$O/$name.log" | grep -v thrust | sed -E 's/create [0-9]+ ms, verify [0-9]+ ms//' | cut -c1-330
}
selftest all 300
selftest partition-abort 200 --strategy partition --partition-overflow-abort
selftest auto-chao1 60 --strategy auto --observed-chao1
gzip -9 "$O"/*.log
cd "$O" && tar czf s39-call1.tgz ./*.csv ./*.md ./*.log.gz 2>/dev/null; rm -f ./*.csv ./*.md ./*.log.gz
echo "total $(( $(date +%s) - T0 )) s"

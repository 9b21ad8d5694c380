#!/usr/bin/env bash
# Session 29, call 7 (about 2.5 minutes; 251 s of device time were left): Nsight Compute on the lean kernel (kernel benchmark,
# forced shared_hash, 4-byte keys, one payload, uniform) at 2^8 groups (whole table, 256-thread
# blocks) and 2^12 (the one-block table), and on shared_bound's hashed block table at 2^8: where do the lean kernel's 3-4x over the bound go?
#   run(command="bash docs/session29-2026-11-29/scripts/call7.sh", timeout_s=180)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call7}; mkdir -p "$O"
T0=$(date +%s)
command -v ncu > /dev/null || { echo "no ncu"; exit 0; }
make -s -j16 -C test/kernelbench CUDA_ARCHS=90 all shared_bound > "$O/build.log" 2>&1; echo "build rc=$? ($(( $(date +%s) - T0 )) s)"
SECTIONS="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section InstructionStats --section SchedulerStats"
summary() {
  grep -E "^ +(Duration|Registers Per Thread|Block Size|Achieved Occupancy|Theoretical Occupancy|Executed Ipc Active|Warp Cycles Per Issued Instruction|Executed Instructions |Issued Warp Per Scheduler|Memory Throughput|Compute \(SM\) Throughput)" "$1" | head -14
  grep -iE "stall|spent" "$1" | head -4
}
prof() {  # NAME KERNEL_REGEX SKIP COMMAND...
  local name=$1 kernel=$2 skip=$3 t0; shift 3; t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 40 ncu --clock-control none --launch-skip "$skip" --launch-count 1 \
    -k "regex:$kernel" $SECTIONS "$@" > "$O/ncu-$name.txt" 2>&1
  echo "== $name rc=$? ($(( $(date +%s) - t0 )) s)"; summary "$O/ncu-$name.txt"
}
KB="test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --methods shared_hash --bw-gib 1 --max-seconds 30 --md /dev/null"
prof lean-2e8 gpugb_lean_shared_kernel 0 $KB --log2-groups 8
# shared_bound's launches: per g (2^2, 2^4, ...) 1P dense x4, 1P hash x4, 4P dense x4, 4P hash x4.
prof bound-hash-2e8 block_table_kernel 52 test/bin/shared_bound
prof lean-2e12 gpugb_lean_shared_kernel 0 $KB --log2-groups 12
cd "$O" && tar czf call7.tgz ./*.txt ./*.log && rm -f ./*.txt ./*.log
echo "total $(( $(date +%s) - T0 )) s"

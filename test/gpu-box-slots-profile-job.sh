#!/usr/bin/env bash
# test/gpu-box-slots-profile-job.sh — why keyed and pair slots slow some kernels down, as a job
# of test/gpu-box-job.sh (about 5 minutes; needs Nsight Compute, ncu, on the box):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-slots-profile-job.sh", carry=[".gpu-box"])
#
# Sessions 17 and 18 measured, in the same binary, the sort strategy 0.77-0.96x and global_hash
# at 2^8 groups 0.79-0.94x with the key in the slots (--keyed-slots on) against tagged slots
# (off), while global_hash from 2^12 up gained 1.1-1.7x (docs/session18-2026-11-27).  This
# profiles one launch of each slowed kernel, on and off: gpugb_run_heads_kernel (sort, 2^16
# groups, 4- and 8-byte keys) and gpugb_agg_kernel (global_hash, 2^8 groups, 4 payloads).
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
job_start
if ! command -v ncu > /dev/null; then echo "no ncu"; job_done; exit 0; fi
make -s -j"$(nproc)" -C test/kernelbench CUDA_ARCHS=90 > "$OUT/kb-build.log" 2>&1 ||
  { echo "kernelbench build failed"; job_done; exit 0; }
profile() {  # NAME KERNEL_REGEX KERNELBENCH_ARGS...
  local name=$1 kernel=$2 t0; shift 2; t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 150 ncu --launch-count 1 -k "regex:$kernel" \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section Occupancy --section LaunchStats \
    test/bin/kernelbench --payloads "${P:-1}" --dists uniform --max-seconds 60 --md /dev/null "$@" \
    > "$OUT/ncu-$name.txt" 2>&1
  echo "== $name rc=$? ($(( $(date +%s) - t0 )) s)"
  grep -E "Duration|Memory Throughput|DRAM Throughput|L2 Hit|L1/TEX Hit|Achieved Occupancy|Warp Cycles Per Issued|Stall (Long|LG)" \
    "$OUT/ncu-$name.txt" | head -12
}
for keyed in on off; do
  for k in 4 8; do
    profile "heads-k$k-$keyed" run_heads --keys "$k" --log2-groups 16 --methods sort --keyed-slots "$keyed"
  done
  P=4 profile "global-g8-k8-$keyed" gpugb_agg_kernel --keys 8 --log2-groups 8 --methods global_hash \
    --keyed-slots "$keyed"
done
job_done

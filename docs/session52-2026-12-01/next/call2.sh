#!/usr/bin/env bash
# Session 52, call 2: where the remaining 3x misses spend their time (binaries of call 1, c2214bd = main's GPU code).
# Kernels in order for 8-byte keys (one and four payloads, 2^22, 2^26) and 4-byte keys with one payload at 2^26;
# Nsight Compute's full set for the lean kernel over gathered rows (4-byte keys, four payloads, 2^22).
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 300 .gpu-box/bins-s52.tar.xz
for a in "8 1 22" "8 4 22" "8 1 26" "8 4 26" "4 1 26" "4 4 26"; do
  set -- $a
  ncu_in_order k$1p$2g$3 s52d0 --methods partition --keys $1 --payloads $2 --log2-groups $3 --dists uniform
done
CUDA_MODULE_LOADING=EAGER timeout 120 ncu --set full -k "regex:partition_lean" -c 1 \
  test/bin/s52d0/kernelbench --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null \
  --methods partition --keys 4 --payloads 4 --log2-groups 22 --dists uniform > "$OUT/ncu-full-lean.txt" 2>&1
echo "== ncu full lean rc=$?"
grep -E "DRAM Throughput|Memory Throughput|L2 Hit|L1/TEX Hit|Achieved Occupancy|Registers Per|Block Size|Theoretical Occ|Stall|Warp Cycles Per Issued|Issue Slots Busy|Duration|Shared Memory Configuration Size|Dynamic Shared|Mem Busy|Max Bandwidth|Compute \(SM\) Th" "$OUT/ncu-full-lean.txt" | head -40
grep -B2 -A6 "smsp__pcsamp_warps_issue_stalled\|Warp State" "$OUT/ncu-full-lean.txt" | head -40
call_pack s52-call2

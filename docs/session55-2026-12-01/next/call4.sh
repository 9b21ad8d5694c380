#!/usr/bin/env bash
# Session 55, call 4: why auto runs the group-id table 1.3-1.4x slower than a forced SHARED_HASH at 2^13 groups,
# 8-byte keys, Zipf 1.0 (calls 1 and 3: 3.46-3.49 ms against 2.42-2.69), when both report the same kernel.
# s55k: main's kernel benchmark with the label for launches that looked rows up by key word (0930e53 + the label).
#  - the benchmark at 2^13, auto and shared_hash, so the label says whether each took the word loop;
#  - Nsight Compute on the group-id kernel under each: time, its dynamic shared memory (the slots), shared-memory
#    atomics and their bank conflicts (a hot group's id decides its bank: a probe that numbers groups in another
#    order than the kernel's own claims would put hot groups in other banks).
#   run(command="bash docs/session55-2026-12-01/next/call4.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s55k.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 240 .gpu-box/bins-s55k.tar.xz
prebuilt_kb label s55k 60 --methods shared_hash,auto --keys 4,8 --payloads 1 --log2-groups 13 \
  --dists uniform,zipf1.0,zipf1.5
grep -E "payload|shared_hash |auto " "$OUT/label.log" | cut -c1-260
for m in shared_hash auto; do
  for k in 8 4; do
    CUDA_MODULE_LOADING=EAGER timeout 90 ncu --csv -k "regex:gpugb_lean_gid_kernel" \
      --metrics gpu__time_duration.sum,launch__shared_mem_per_block_dynamic,launch__grid_size,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,smsp__inst_executed.sum \
      test/bin/s55k/kernelbench --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null --methods $m --keys $k \
      --payloads 1 --log2-groups 13 --dists zipf1.0 > "$OUT/ncu-$m-k$k.csv" 2> "$OUT/ncu-$m-k$k.err"
    echo "== ncu $m, $k-byte keys, zipf1.0, 2^13 (rc=$?)"
    grep -E '"gpugb_lean_gid_kernel|lean_gid' "$OUT/ncu-$m-k$k.csv" | awk -F'","' '{print $5, "|", $(NF-2), $NF}' | head -20
  done
done
call_pack s55-call4

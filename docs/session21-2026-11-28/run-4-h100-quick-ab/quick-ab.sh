#!/usr/bin/env bash
# Session 21's last-minutes A/B: base (main), other-o (occupancy grids), other-t (heads tile).
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
t0=$(date +%s)
for t in . .gpu-box/other-o .gpu-box/other-t; do
  (make -s -j5 -C $t/test/kernelbench CUDA_ARCHS=90 > $OUT/build-$(basename $t).log 2>&1; echo "build $t rc=$?") &
done
wait
echo "built in $(( $(date +%s) - t0 )) s"
for t in . .gpu-box/other-o .gpu-box/other-t; do
  side=$(basename $t); [ "$t" = . ] && side=base
  CUDA_MODULE_LOADING=EAGER timeout 60 $t/test/bin/kernelbench --keys 4 --payloads 1,4 --dists uniform \
    --log2-groups 0,2,4,6,8,22,24,26 --methods private_hash,shared_hash,sort --max-seconds 35 --bw-gib 1 \
    --csv $OUT/kb-$side.csv --md $OUT/kb-$side.md > $OUT/kb-$side.log 2>&1
  echo "kb $side rc=$? $(grep -E 'verified' $OUT/kb-$side.md | cut -c1-200)"
done
python3 test/kernelbench/ab_table.py $OUT/kb-base.csv $OUT/kb-other-o.csv
python3 test/kernelbench/ab_table.py $OUT/kb-base.csv $OUT/kb-other-t.csv

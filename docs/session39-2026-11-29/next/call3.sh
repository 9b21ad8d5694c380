#!/usr/bin/env bash
# Session 39, call 3: why PARTITION got slower at 2^22-2^24 groups since session 38's call 2
# (4-byte keys, one payload, uniform 2^24: 17.5 -> 30.5 ms), four kernelbench builds in one run:
#   kb-head      fee5b2b (session 38's last code)
#   kb-noread    fee5b2b without gpugb_claim_slot's volatile read of the group counter (5e64a37)
#   kb-flag      the fix: the read goes to a flag in its own line, through L1
#   kb-a378679   session 38's call 2 code (before 5e64a37 and the overflow experiment)
# then, with kb-flag: spec.partition_overflow_abort on and off at the exact estimate (its cost where
# nothing overflows, before it becomes the default), and the full-table cases the read was for.
#   tar cJf .gpu-box/variants.tar.xz -C .gpu-box v/
#   run(command="bash docs/session39-2026-11-29/next/call3.sh", carry=[".gpu-box/variants.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
O=${OUT:-/tmp/gpugb-s39-call3}; mkdir -p "$O"
T0=$(date +%s)
tar xJf .gpu-box/variants.tar.xz -C .gpu-box || exit 1
kb() {	# binary, name, limit, options...
  local bin=$1 name=$2 limit=$3; shift 3
  local t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout "$limit" .gpu-box/v/$bin --bw-gib 1 --reps 1 --max-seconds $(( limit - 10 )) \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "$bin $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
}
P="--keys 4,8 --payloads 1,4 --dists uniform,zipf1.0 --log2-groups 20:24:2 --methods partition,global_hash"
for round in 1 2; do
  for b in kb-head kb-noread kb-flag kb-a378679; do kb $b $b-$round 60 $P; done
done
for b in kb-head kb-noread kb-a378679; do
  echo "== $b / kb-flag (time ratio: above 1, kb-flag faster)"
  python3 test/kernelbench/ab_table.py "$O/$b-1.csv" "$O/kb-flag-1.csv" "$O/$b-2.csv" "$O/kb-flag-2.csv" | grep -E "^\|"
done
for c in off on; do
  kb kb-flag abort-$c 80 --keys 4,8 --payloads 1,4 --dists uniform,zipf1.0 --log2-groups 16:24:2 \
    --methods partition --partition-overflow-abort $c
done
echo "== abort off / on at the exact estimate"
python3 test/kernelbench/ab_table.py "$O/abort-off.csv" "$O/abort-on.csv" | grep -E "^\|"
kb kb-flag full-1e-5 60 --keys 4 --payloads 1 --dists uniform,zipf1.0 --log2-groups 22 \
  --methods global_hash,shared_hash,auto --estimate-scale 1e-5
grep -E "^    [a-z_]+ " "$O/full-1e-5.log" | grep -v thrust | sed -E 's/create [0-9]+ ms, verify [0-9]+ ms//' | cut -c1-300
gzip -9 "$O"/*.log
cd "$O" && tar czf s39-call3.tgz ./*.csv ./*.md ./*.log.gz 2>/dev/null; rm -f ./*.csv ./*.md ./*.log.gz
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 45's third call: the grid for issue 3's targets with main's kernel code (B=s45count if the count
# kernel's tiles won in call 2, else B=s45main; .gpu-box/bins-s45-2.tar.xz, as call 2): 2^18-2^22 groups
# (global_hash, shared_hash, partition, auto) and 2^24-2^26 (partition, auto), every shape and distribution,
# 3 reps; merged over session 44's grid-full.csv.
#   run(command="B=s45count bash docs/session45-2026-11-30/next/call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s45-2.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s45-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD), binaries test/bin/${B:?}"
tar xJf .gpu-box/bins-s45-2.tar.xz || exit 1
kb() {	# name, seconds, options...
  local name=$1 secs=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout $(( secs + 5 )) test/bin/$B/kernelbench --bw-gib 1 --max-seconds $secs --reps 3 \
    --keys 4,8 --payloads 1,4 --dists uniform,zipf0.5,zipf1.0,zipf1.5 --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
kb grid-mid 200 --log2-groups 18:22:2 --methods global_hash,shared_hash,partition,auto
kb grid-hi 200 --log2-groups 24:26:2 --methods partition,auto
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s45-call3.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

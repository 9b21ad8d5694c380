#!/usr/bin/env bash
# For session 47, after call6.sh: one build V (s46e pairs, s46t two blocks, or s46x both: branch s46-pairs-two,
# built with -DGPUGB_PARTITION_LEAN_BLOCKS_PER_SM=2) against main's compact flush (s46c) at call 6's 30 points,
# then V's self-test (PARTITION and auto cases) and V's grid points at 2^20-2^26 (partition, auto; every shape
# and distribution; 3 reps), to merge into grid-full.csv if V is merged.
#   run(command="V=s46x bash docs/session46-2026-11-30/next/call7.sh",
#       carry=[".gpu-box/bins-s46c.tar.xz", ".gpu-box/bins-s46x.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
: "${V:?V=s46e, s46t or s46x}"
O=${OUT:-/tmp/gpugb-s46-call7}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
for t in s46c $V; do tar xJf .gpu-box/bins-$t.tar.xz || exit 1; done
kb() {	# name, bin, seconds, options...
  local name=$1 bin=$2 secs=$3 t0=$(date +%s); shift 3
  CUDA_MODULE_LOADING=EAGER timeout $(( secs + 5 )) test/bin/$bin/kernelbench --bw-gib 1 --max-seconds $secs --reps 3 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  local rc=$?
  echo "kernelbench $name rc=$rc ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
  return $rc
}
G="--methods partition --keys 4,8 --payloads 1 --log2-groups 18:26:2 --dists uniform,zipf1.0,zipf1.5"
kb part-compact s46c 60 $G
kb part-$V $V 60 $G || { echo "$V did not finish: stop"; exit 1; }
python3 test/kernelbench/ab_table.py "$O/part-compact.csv" "$O/part-$V.csv" | grep -E "^\|"
for s in partition auto; do
  t0=$(date +%s)
  timeout 140 test/bin/$V/device_selftest --require-gpu --quick --strategy $s > "$O/selftest-$V-$s.log" 2>&1
  echo "selftest $s rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$V-$s.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/selftest-$V-$s.log" | head -8 | cut -c1-300
done
secs=$(( $(left) - 30 )); [ $secs -gt 200 ] && secs=200
[ $secs -gt 60 ] && kb grid-hi-$V $V $secs --keys 4,8 --payloads 1,4 --dists uniform,zipf0.5,zipf1.0,zipf1.5 \
  --log2-groups 20:26:2 --methods partition,auto
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s46-call7-$V.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

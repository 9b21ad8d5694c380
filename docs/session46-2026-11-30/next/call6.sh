#!/usr/bin/env bash
# Written for session 46's last call, which could not start (too little device time left); for session 47.
# The pairs flush mended (branch s46-claim-pairs at d2582f2: __syncwarp before the home CASes, as call 5's
# build s46d hung), test/bin/s46e: forced PARTITION against the compact flush (s46c, main's device code) at
# 30 points (2^18-2^26, both key widths, one payload, uniform, Zipf 1.0 and 1.5: the home CAS also meets
# keys that exist, in split partitions), then, if it finished, the self-test's PARTITION and auto cases.
#   run(command="bash docs/session46-2026-11-30/next/call6.sh", carry=[".gpu-box/bins-s46c.tar.xz", ".gpu-box/bins-s46e.tar.xz"], timeout_s=420)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s46-call6}; mkdir -p "$O"
T0=$(date +%s)
tar xJf .gpu-box/bins-s46c.tar.xz && tar xJf .gpu-box/bins-s46e.tar.xz || exit 1
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
if kb part-pairs s46e 60 $G; then
  python3 test/kernelbench/ab_table.py "$O/part-compact.csv" "$O/part-pairs.csv" | grep -E "^\|"
  t0=$(date +%s)
  for s in partition auto; do
    t0=$(date +%s)
    timeout 140 test/bin/s46e/device_selftest --require-gpu --quick --strategy $s > "$O/selftest-$s-pairs.log" 2>&1
    echo "selftest $s rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$s-pairs.log" | cut -c1-160)"
    grep -E "^FAIL" "$O/selftest-$s-pairs.log" | head -8 | cut -c1-300
  done
fi
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s46-call6.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

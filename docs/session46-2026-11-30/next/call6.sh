#!/usr/bin/env bash
# Session 46, call 6 (the last ~250 s of device time): the pairs flush mended (__syncwarp before the home
# CASes; call 5's build s46d hung), test/bin/s46e: forced PARTITION against the compact flush (s46c) at 12
# points, then, if it finished, the self-test's PARTITION cases.
#   run(command="bash docs/session46-2026-11-30/next/call6.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s46c.tar.xz", ".gpu-box/bins-s46e.tar.xz"], timeout_s=240)
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
G="--methods partition --keys 4,8 --payloads 1 --log2-groups 22:26:2 --dists uniform,zipf1.0"
kb part-compact s46c 30 $G
if kb part-pairs s46e 30 $G; then
  python3 test/kernelbench/ab_table.py "$O/part-compact.csv" "$O/part-pairs.csv" | grep -E "^\|"
  t0=$(date +%s)
  timeout 125 test/bin/s46e/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition-pairs.log" 2>&1
  echo "selftest partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition-pairs.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/selftest-partition-pairs.log" | head -8 | cut -c1-300
fi
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s46-call6.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

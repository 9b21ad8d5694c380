#!/usr/bin/env bash
# Session 46, call 2:
# 1. the whole device self-test at HEAD's device code (test/bin/s46, built at 4902f9f; session 45's mended
#    gid assertions, never run on the GPU);
# 2. PARTITION's flush over a list of the claimed slots (branch s46-compact-flush, test/bin/s46c) against
#    main's walk of every slot, forced PARTITION at 2^22-2^26, the same points in the same order, 3 reps;
# 3. the self-test's PARTITION cases on the compact flush;
# 4. auto at four payloads, Zipf 1.0, 2^12-2^16 with the gid table off and on (session 45's 0.95-0.97x).
#   run(command="bash docs/session46-2026-11-30/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s46.tar.xz", ".gpu-box/bins-s46c.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s46-call2}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 580 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s46.tar.xz && tar xJf .gpu-box/bins-s46c.tar.xz || exit 1
st() {	# name, bin, seconds, options...
  local name=$1 bin=$2 secs=$3 t0=$(date +%s); shift 3
  timeout $secs test/bin/$bin/device_selftest --require-gpu --quick "$@" > "$O/$name.log" 2>&1
  echo "selftest $name rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/$name.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/$name.log" | head -8 | cut -c1-300
}
kb() {	# name, bin, seconds, options...
  local name=$1 bin=$2 secs=$3 t0=$(date +%s); shift 3
  CUDA_MODULE_LOADING=EAGER timeout $(( secs + 5 )) test/bin/$bin/kernelbench --bw-gib 1 --max-seconds $secs --reps 3 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
st selftest-all s46 230
G="--methods partition --keys 4,8 --payloads 1,4 --log2-groups 22:26:2 --dists uniform,zipf1.0"
kb part-main s46 80 $G
kb part-compact s46c 80 $G
echo "== PARTITION forced, main's flush -> the compact flush"
python3 test/kernelbench/ab_table.py "$O/part-main.csv" "$O/part-compact.csv" | grep -E "^\|"
st selftest-partition-compact s46c $(( $(left) - 70 )) --strategy partition
if [ "$(left)" -gt 60 ]; then
  GA="--methods auto --keys 4,8 --payloads 4 --dists zipf1.0 --log2-groups 12:16:1"
  kb auto-gid-off s46 25 $GA --lean-gid-table off
  kb auto-gid-on s46 25 $GA
  python3 test/kernelbench/ab_table.py "$O/auto-gid-off.csv" "$O/auto-gid-on.csv" | grep -E "^\|"
fi
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s46-call2.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

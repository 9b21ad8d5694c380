#!/usr/bin/env bash
# Session 46, call 5:
# 1. the flush's two keys a thread with their home slots claimed by CAS (cuda/deferred_claim.cuh,
#    test/bin/s46d) against the compact flush alone (test/bin/s46c), forced PARTITION, the same 24 points
#    as call 2, the same order, 3 reps;
# 2. the self-test's PARTITION and auto cases on s46d;
# 3. Nsight Compute's SASS samples of s46d's lean kernel at 2^26;
# 4. the grid's 2^20-2^26 points (partition, auto; every shape and distribution; 3 reps) with s46d if it
#    passed 1-2 (no mismatch, no failure, faster at 2^24-2^26), else with s46c.
#   run(command="bash docs/session46-2026-11-30/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s46c.tar.xz", ".gpu-box/bins-s46d.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s46-call5}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s46c.tar.xz && tar xJf .gpu-box/bins-s46d.tar.xz || exit 1
st() {	# name, bin, seconds, options...
  local name=$1 bin=$2 secs=$3 t0=$(date +%s); shift 3
  timeout $secs test/bin/$bin/device_selftest --require-gpu --quick "$@" > "$O/$name.log" 2>&1
  local rc=$?
  echo "selftest $name rc=$rc ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/$name.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/$name.log" | head -8 | cut -c1-300
  return $rc
}
kb() {	# name, bin, seconds, options...
  local name=$1 bin=$2 secs=$3 t0=$(date +%s); shift 3
  CUDA_MODULE_LOADING=EAGER timeout $(( secs + 5 )) test/bin/$bin/kernelbench --bw-gib 1 --max-seconds $secs --reps 3 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
G="--methods partition --keys 4,8 --payloads 1,4 --log2-groups 22:26:2 --dists uniform,zipf1.0"
kb part-compact s46c 80 $G
kb part-pairs s46d 80 $G
echo "== PARTITION forced, the compact flush -> two keys a thread, home slots claimed by CAS"
python3 test/kernelbench/ab_table.py "$O/part-compact.csv" "$O/part-pairs.csv" | grep -E "^\|"
ok=1
grep -qE " 0 MISMATCH, 0 errors" "$O/part-pairs.md" || ok=0
st selftest-partition-pairs s46d 140 --strategy partition || ok=0
st selftest-auto-pairs s46d 90 --strategy auto || ok=0
faster=$(python3 - "$O/part-compact.csv" "$O/part-pairs.csv" <<'PY'
import csv, sys
t = [{(r["key_bytes"], r["payloads"], r["dist"], r["log2_g"]): float(r["seconds"]) for r in csv.DictReader(open(f)) if r["method"] == "partition"} for f in sys.argv[1:]]
hi = [k for k in t[0] if int(k[3]) >= 24 and k in t[1]]
print(1 if hi and sum(t[0][k] / t[1][k] for k in hi) / len(hi) > 1.03 else 0)
PY
)
B=s46c; [ "$ok" = 1 ] && [ "$faster" = 1 ] && B=s46d
echo "pairs passed: $ok, faster at 2^24-2^26: $faster -> the grid with $B"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 40 ncu -k "regex:gpugb_partition_lean_kernel" -c 1 --section SourceCounters --section WarpStateStats \
  --page source --print-source sass --csv test/bin/s46d/kernelbench --keys 4 --payloads 1 --dists uniform --methods partition \
  --reps 1 --bw-gib 1 --max-seconds 30 --md /dev/null --log2-groups 26 > "$O/sass-pairs-26.csv" 2> "$O/sass-pairs-26.err"
echo "ncu source rc=$? ($(( $(date +%s) - t0 )) s)"
python3 docs/session46-2026-11-30/next/sass_stalls.py "$O/sass-pairs-26.csv" 2>&1 | sed -n 2,14p
secs=$(( $(left) - 30 )); [ $secs -gt 220 ] && secs=220
kb grid-hi-$B $B $secs --keys 4,8 --payloads 1,4 --dists uniform,zipf0.5,zipf1.0,zipf1.5 --log2-groups 20:26:2 --methods partition,auto
gzip -9 "$O"/*.log "$O"/*.err "$O"/sass-*.csv 2>/dev/null
cd "$O" && tar czf s46-call5.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

#!/usr/bin/env bash
# Session 48, call 3: whole partitions numbered without lookups, on by default (spec.partition_lookup_all turns it
# off), and auto's device-resident probe run again on an emptied table where PARTITION follows for 2^22 groups or more
# (cuda/groupby.cu, restarts_after_probe). Binaries test/bin/s48e, built from main at .gpu-box/HEAD.
# 1. kernel benchmark A/B, PARTITION and auto, --partition-direct off then on, 2^20-2^26 groups, both key widths,
#    one and four payloads, uniform and Zipf 1.0, 3 reps;
# 2. Nsight Compute kernel times in launch order, forced PARTITION at 2^24 and 2^26 (4-byte keys, one payload, uniform);
# 3. the whole self-test (default options), while the extension builds;
# 4. pgTAP and qgen through PostgreSQL with PARTITION forced, as time allows.
#   run(command="bash docs/session48-2026-11-30/next/call3.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s48e.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s48-call3}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s48e.tar.xz || exit 1
kb() {	# name, options...
  local name=$1 t0=$(date +%s); shift
  CUDA_MODULE_LOADING=EAGER timeout 130 test/bin/s48e/kernelbench --bw-gib 1 --max-seconds 120 --reps 3 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
}
G="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 20:26:2 --dists uniform,zipf1.0"
kb hi-off $G --partition-direct off
kb hi-on $G
echo "== --partition-direct off -> on (time(off)/time(on): >1 means on is faster)"
python3 test/kernelbench/ab_table.py "$O/hi-off.csv" "$O/hi-on.csv" | grep -E "^\|"
grep -oE "[0-9]+ direct, [0-9]+ restarted\)" "$O/hi-on.log" | sort | uniq -c | sed 's/^/runs: /'
KB="test/bin/s48e/kernelbench --keys 4 --payloads 1 --dists uniform --methods partition --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null"
for g in 24 26; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb|Radix|Onesweep|Histogram|Scan|Partition" \
    $KB --log2-groups $g > "$O/ncu-order-$g.csv" 2> "$O/ncu-order-$g.err"
  echo "== ncu in order, 2^$g, rc=$? ($(( $(date +%s) - t0 )) s)"
  python3 test/kernelbench/ncu_phases.py --in-order "$O/ncu-order-$g.csv" | tail -16
done
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j8 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" > "$O/ext-build.rc" ) &
BUILD=$!
t0=$(date +%s)
timeout $(( $(left) - 30 )) test/bin/s48e/device_selftest --require-gpu > "$O/selftest-all.log" 2>&1
echo "selftest (whole) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-300
grep -E "^cases with" "$O/selftest-all.log"
wait $BUILD; cat "$O/ext-build.rc"
if [ "$(left)" -gt 100 ]; then
  t0=$(date +%s)
  STRATEGIES=partition QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$O/partition" \
    timeout -k 5 $(( $(left) - 10 )) bash test/gpu-box.sh strategies > "$O/pg-partition.log" 2>&1
  echo "pgTAP and qgen partition rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok|Direct" "$O/pg-partition.log" | tail -10
else
  echo "pgTAP skipped (time: $(left) s left)"
fi
gzip -9 "$O"/*.log "$O"/*.err 2>/dev/null
cd "$O" && tar czf s48-call3.tgz ./*.gz ./*.md ./*.csv ./*.rc $(ls -d */ 2>/dev/null) 2>/dev/null; rm -rf ./*.gz ./*.md ./*.rc $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

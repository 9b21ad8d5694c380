#!/usr/bin/env bash
# Session 48, call 4: main with the groups of a device-resident handle's direct launch published only when a lookup
# is to come (gb->publish_pending; finish only unmarks them), and the slot loaded before its CAS in the publish and
# the rehash. Binaries test/bin/s48f, built from main at .gpu-box/HEAD.
# 1. the issue's grid at 2^20-2^26 for PARTITION and auto (all four distributions, both key widths, one and four
#    payloads, 3 reps), to merge into docs/session46-2026-11-30/grid-full.csv;
# 2. estimates 100x and 10x too low (growth and retries after a direct launch, device-resident), verified;
# 3. the self-test's PARTITION and auto cases (quick), while the extension builds;
# 4. pgTAP and qgen through PostgreSQL with PARTITION forced, as time allows;
# 5. Nsight Compute kernel times in launch order at 2^26, forced PARTITION, as time allows.
#   run(command="bash docs/session48-2026-11-30/next/call4.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s48f.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s48-call4}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( ${CALL_SECONDS:-560} - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s48f.tar.xz || exit 1
kb() {	# name, seconds, options...
  local name=$1 secs=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout $(( secs + 10 )) test/bin/s48f/kernelbench --bw-gib 1 --max-seconds $secs \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
}
kb grid-hi 150 --reps 3 --methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 20:26:2 --dists uniform,zipf0.5,zipf1.0,zipf1.5
grep -oE "[0-9]+ direct, [0-9]+ restarted\)" "$O/grid-hi.log" | sort | uniq -c | sed 's/^/runs: /'
for s in 0.01 0.1; do
  kb low-$s 60 --reps 1 --estimate-scale $s --methods partition,auto --keys 4,8 --payloads 1 --log2-groups 20:24:2 --dists uniform,zipf1.0
  grep -oE "[0-9]+ direct, [0-9]+ restarted\)" "$O/low-$s.log" | sort | uniq -c | sed 's/^/runs: /'
done
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j8 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" > "$O/ext-build.rc" ) &
BUILD=$!
for s in partition auto; do
  t0=$(date +%s)
  timeout 200 test/bin/s48f/device_selftest --require-gpu --quick --strategy $s > "$O/selftest-$s.log" 2>&1
  echo "selftest $s rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$s.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/selftest-$s.log" | head -8 | cut -c1-300
  grep -E "^cases with (deferred|a direct|overflowed)" "$O/selftest-$s.log"
done
wait $BUILD; cat "$O/ext-build.rc"
if [ "$(left)" -gt 120 ]; then
  t0=$(date +%s)
  STRATEGIES=partition QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$O/partition" \
    timeout -k 5 $(( $(left) - 40 )) bash test/gpu-box.sh strategies > "$O/pg-partition.log" 2>&1
  echo "pgTAP and qgen partition rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$O/pg-partition.log" | tail -10
else
  echo "pgTAP skipped (time: $(left) s left)"
fi
if [ "$(left)" -gt 25 ]; then
KB="test/bin/s48f/kernelbench --keys 4 --payloads 1 --dists uniform --methods partition --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout $(( $(left) - 5 )) ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb|Radix|Onesweep|Histogram|Scan|Partition" \
  $KB --log2-groups 26 > "$O/ncu-order-26.csv" 2> "$O/ncu-order-26.err"
echo "== ncu in order, 2^26, rc=$? ($(( $(date +%s) - t0 )) s)"
python3 test/kernelbench/ncu_phases.py --in-order "$O/ncu-order-26.csv" | tail -14
fi
gzip -9 "$O"/*.log "$O"/*.err 2>/dev/null
cd "$O" && tar czf s48-call4.tgz ./*.gz ./*.md ./*.csv ./*.rc $(ls -d */ 2>/dev/null) 2>/dev/null; rm -rf ./*.gz ./*.md ./*.rc $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

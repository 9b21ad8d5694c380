#!/usr/bin/env bash
# Session 40, call 4 (under 600 s), at the commit in .gpu-box/HEAD:
#  1. the self-test's PARTITION cases under --retry-repartition, with the check that no longer asks
#     a round of under half a launch's rows to be partitioned (call 3: case 123, 1.55e6 of 8e6 rows);
#  2. spec.partition_overflow_walks_only where the table runs out of ids near the end of a launch
#     (estimate 0.6x-0.9x the groups; call 3 measured 0.95x, no overflow either way, and 0.5x-0.08x,
#     where walks stop the launch either way);
#  3. pgTAP and qgen with auto (not run since da3fffe; the reserve's slack changed auto's check);
#  4. Nsight Compute: SORT's and PARTITION's kernels at 2^26 groups (4-byte keys, one payload,
#     uniform), where SORT is 0.74x Thrust and PARTITION 0.57x.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session40-2026-11-30/next/call4.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s40-call4}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" ) &
BUILD=$!
t0=$(date +%s)
timeout 160 test/bin/device_selftest --require-gpu --quick --strategy partition --retry-repartition > "$O/selftest-repartition.log" 2>&1
echo "selftest --strategy partition --retry-repartition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-repartition.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-repartition.log"
grep -E "^FAIL" "$O/selftest-repartition.log" | head -8 | cut -c1-400
for scale in 0.9 0.8 0.7 0.6; do
  for noid in on off; do
    name=s$scale-noid-$noid t0=$(date +%s)
    CUDA_MODULE_LOADING=EAGER timeout 40 test/bin/kernelbench --bw-gib 1 --reps 1 --max-seconds 30 \
      --keys 4 --payloads 1 --dists uniform,zipf1.0 --log2-groups 22 --methods partition \
      --estimate-scale $scale --partition-overflow-no-id $noid --csv "$O/$name.csv" --md "$O/$name.md" > "$O/$name.log" 2>&1
    echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
    grep -E "^    partition " "$O/$name.log" | sed -E 's/create [0-9]+ ms, verify [0-9]+ ms//; s/ +/ /g' | cut -c1-260
  done
done
wait $BUILD
if [ "$(left)" -gt 200 ]; then
  t0=$(date +%s)
  STRATEGIES=auto QGEN_STRATEGY_QUERIES=200 QGEN_JOBS=12 OUT="$O/auto" \
    timeout -k 5 $(( $(left) - 90 )) bash test/gpu-box.sh strategies > "$O/auto.log" 2>&1
  echo "pgTAP and qgen auto rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$O/auto.log" | tail -8
else
  echo "pgTAP auto skipped (time)"
fi
for m in sort partition; do
  [ "$(left)" -gt 45 ] || { echo "ncu $m skipped (time)"; continue; }
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout $(( $(left) - 15 )) ncu --metrics gpu__time_duration.sum --csv \
    test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 26 --methods $m --reps 1 \
    --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-$m-g26.csv" 2> "$O/ncu-$m-g26.err"
  echo "== ncu $m 2^26 rc=$? ($(( $(date +%s) - t0 )) s)"
  [ $m = sort ] && python3 test/kernelbench/ncu_phases.py "$O/ncu-$m-g26.csv"
  python3 - "$O/ncu-$m-g26.csv" <<'PY'
import collections, csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit("no ncu rows")
h = rows[0]
n, m, v, u = (h.index(x) for x in ("Kernel Name", "Metric Name", "Metric Value", "Metric Unit"))
scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
tot, cnt = collections.Counter(), collections.Counter()
for r in rows[1:]:
    if r[m] == "gpu__time_duration.sum":
        k = r[n].split("(")[0].split("<")[0].split("::")[-1].strip()
        tot[k] += float(r[v].replace(",", "")) * scale.get(r[u], 1.0)
        cnt[k] += 1
for k, t in tot.most_common(14):
    print(f"  {t:10.3f} ms {cnt[k]:4d}x  {k}")
PY
done
gzip -9 "$O"/*.log "$O"/*.csv "$O"/*.err 2>/dev/null
cd "$O" && tar czf s40-call4.tgz ./*.gz ./*.md $(ls -d */ 2>/dev/null) 2>/dev/null; rm -rf ./*.gz ./*.md $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"

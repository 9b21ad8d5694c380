#!/usr/bin/env bash
# Session 41, call 1 (under 600 s), from a checkout of the branch s41-run-groups-coalesced, which
# sits on s41-remove-walks-only (both not run on a GPU):
#  1. the self-test's PARTITION cases with the walks-only experiment removed (24 overflowed cases
#     expected, as in session 40's call 1);
#  2. the experiments spec.sort_coalesced_claims and spec.partition_coalesced_claims: the
#     self-test's SORT and PARTITION cases with them, and SORT and PARTITION with and without them at
#     2^16-2^26 (session 40's call 5 ran the same points for the sort by home slot);
#     Also spec.partition_overflow_check_steps: PARTITION's lean launches read their overflow flag
#     every 8 warp steps instead of every step, at 2^18-2^24 (the self-test's PARTITION cases run
#     with it and the coalesced claims together);
#  3. where PARTITION's time goes at the nearest 3x-Thrust misses (session 40's grid: 4-byte keys,
#     one payload, 2^22, 2.86x uniform and 2.70x Zipf 0.5; four payloads at 2^20, 2.35-2.49x):
#     every gpugb kernel's duration (Nsight Compute), summed by kernel;
#  4. the whole self-test, if time allows.
#   git checkout s41-run-groups-coalesced
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session40-2026-11-30/next/s41-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s41-call1}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 580 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-partition.log"
grep -E "^FAIL" "$O/selftest-partition.log" | head -8 | cut -c1-400
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick --strategy sort --sort-coalesced-claims > "$O/selftest-sort-coalesced.log" 2>&1
echo "selftest --strategy sort --sort-coalesced-claims rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-sort-coalesced.log" | cut -c1-160)"
grep -E "^cases with (SORT|generic)" "$O/selftest-sort-coalesced.log"
grep -E "^FAIL" "$O/selftest-sort-coalesced.log" | head -6 | cut -c1-400
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick --strategy partition --partition-coalesced-claims \
  --partition-overflow-check-steps 8 > "$O/selftest-partition-coalesced.log" 2>&1
echo "selftest --strategy partition --partition-coalesced-claims --partition-overflow-check-steps 8 rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition-coalesced.log" | cut -c1-160)"
grep -E "^cases with (SORT|generic)" "$O/selftest-partition-coalesced.log"
grep -E "^FAIL" "$O/selftest-partition-coalesced.log" | head -6 | cut -c1-400
for v in off on; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 100 test/bin/kernelbench --bw-gib 1 --reps 1 --max-seconds 90 \
    --log2-groups 16:26:2 --dists uniform,zipf1.0 --methods sort,partition \
    --sort-coalesced-claims $v --partition-coalesced-claims $v \
    --csv "$O/coalesced-$v.csv" --md "$O/coalesced-$v.md" > "$O/coalesced-$v.log" 2>&1
  echo "kernelbench coalesced-$v rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/coalesced-$v.md")"
  grep -c "coalesced claims" "$O/coalesced-$v.log" | sed 's/^/  runs with coalesced claims: /'
done
[ -f "$O/coalesced-on.csv" ] && python3 test/kernelbench/ab_table.py "$O/coalesced-off.csv" "$O/coalesced-on.csv" | grep -E "^\|"
for n in 1 8; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 80 test/bin/kernelbench --bw-gib 1 --reps 1 --max-seconds 70 \
    --log2-groups 18:24:2 --dists uniform,zipf0.5 --methods partition --partition-overflow-check-steps $n \
    --csv "$O/checksteps-$n.csv" --md "$O/checksteps-$n.md" > "$O/checksteps-$n.log" 2>&1
  echo "kernelbench checksteps-$n rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/checksteps-$n.md")"
done
[ -f "$O/checksteps-8.csv" ] && python3 test/kernelbench/ab_table.py "$O/checksteps-1.csv" "$O/checksteps-8.csv" | grep -E "^\|"
summarize() {
  python3 - "$1" <<'PY'
import collections, csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit("  no ncu rows")
h = rows[0]
n, m, v, u = (h.index(x) for x in ("Kernel Name", "Metric Name", "Metric Value", "Metric Unit"))
scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
tot, cnt = collections.Counter(), collections.Counter()
for r in rows[1:]:
    if r[m] == "gpu__time_duration.sum":
        k = r[n].split("(")[0].split("<")[0].split("::")[-1].replace("void ", "").strip()
        tot[k] += float(r[v].replace(",", "")) * scale.get(r[u], 1.0)
        cnt[k] += 1
for k, t in tot.most_common(12):
    print(f"  {t:10.3f} ms {cnt[k]:4d}x  {k}")
PY
}
# Two gpugb launches a point (the warm-up's and the measured run's): halve the sums for one.
for spec in "4 1 uniform 22" "4 1 zipf0.5 22" "4 4 uniform 20" "8 1 uniform 22"; do
  set -- $spec
  [ "$(left)" -gt 40 ] || { echo "ncu $spec skipped (time)"; continue; }
  name=k$1-p$2-$3-g$4 t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 90 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb_|DeviceRadixSort" \
    test/bin/kernelbench --keys $1 --payloads $2 --dists $3 --log2-groups $4 --methods partition --reps 1 \
    --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-$name.csv" 2> "$O/ncu-$name.err"
  echo "== ncu partition $name rc=$? ($(( $(date +%s) - t0 )) s); DeviceRadixSort includes Thrust's"
  summarize "$O/ncu-$name.csv"
done
if [ "$(left)" -gt 260 ]; then
  t0=$(date +%s)
  timeout $(( $(left) - 20 )) test/bin/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
  echo "selftest (all) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
fi
gzip -9 "$O"/*.log "$O"/*.csv "$O"/*.err 2>/dev/null
cd "$O" && tar czf s41-call1.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"

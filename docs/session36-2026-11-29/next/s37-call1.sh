#!/usr/bin/env bash
# Session 37, call 1 (about 8 minutes): what session 36 committed after its last GPU call (ea77068):
# auto's two rule changes in src/heuristics.c (9c69f8c), chosen from session 36's forced-strategy
# times but not yet measured under auto:
#  - the lean partition from 12 rows a key (LEAN_PARTITION_AUTO_MIN_ROWS_PER_KEY): Zipf 1.0 over 2^26
#    (9 rows a key) should now take sort (33.1 / 57.8 ms with 4-byte keys, one / four payloads);
#  - skewed packed sums take the lean partition only beyond 3x L2: Zipf 1.0 at 2^20 with two to four
#    payloads should now take SHARED_HASH's partial table (8-byte keys, three payloads: 21.8 ms
#    against PARTITION's 28.2).
# Then the alloc trace (kernelbench --alloc-trace), and the whole device self-test, which session 36
# cut at 601 of 648 cases by its 225 s limit.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session36-2026-11-29/next/s37-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s37-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
for spec in "g26 26 1,4 zipf1.0" "g18-22 18:22:2 2,3,4 zipf1.0"; do
  set -- $spec
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 90 test/bin/kernelbench --bw-gib 1 --max-seconds 80 --keys 4,8 --payloads "$3" \
    --dists "$4" --log2-groups "$2" --csv "$O/auto-$1.csv" --md "$O/auto-$1.md" > "$O/auto-$1.log" 2>&1
  echo "auto at $1, payloads $3, $4: rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/auto-$1.md")"
  python3 - "$O/auto-$1.csv" <<'PY'
import csv, collections, sys
pts = collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    pts[(r['key_bytes'], r['payloads'], r['dist'], r['log2_g'])][r['method']] = (float(r['seconds']) * 1e3, r['strategy_used'])
for k, m in sorted(pts.items()):
    best = min((v[0], n) for n, v in m.items() if n not in ('thrust', 'auto'))
    print(f"  {k[0]}B {k[1]}P {k[2]} 2^{k[3]}: auto {m['auto'][0]:.1f} ms ({m['auto'][1]}), best {best[1]} {best[0]:.1f}, "
          f"auto/best {m['auto'][0] / best[0]:.2f}, best/thrust {m['thrust'][0] / best[0]:.2f}")
PY
done
# Where auto's and PARTITION's host time in cudaMalloc/cudaFree goes, by buffer (--alloc-trace, 2c775e4+):
# session 36's call 1 had auto 3.45 ms against PARTITION's 1.85 at 2^22 (pending/next-steps.md, items 2-3).
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 50 test/bin/kernelbench --bw-gib 1 --max-seconds 40 --keys 4 --payloads 1,4 \
  --dists uniform --log2-groups 22,24 --methods partition,auto --alloc-trace on \
  --csv "$O/trace.csv" --md "$O/trace.md" > "$O/trace.log" 2>&1
echo "alloc trace rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/trace.md")"
grep -E "^  [48]-byte|alloc trace|^    (partition|auto) " "$O/trace.log" | sed -E 's/ +create.*//' | head -60 | cut -c1-200
t0=$(date +%s)
timeout 300 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log" | cut -c1-160)"
echo "  $(grep -c '^ok' "$O/selftest.log") ok, $(grep -c '^FAIL' "$O/selftest.log") FAIL"
grep -E "^FAIL" "$O/selftest.log" | head -5 | cut -c1-300
# Where the run's time goes (6e75729: each case's wall time; the slowest eight before the summary).
grep -E "^slowest" "$O/selftest.log" | cut -c1-200
grep -oE "\(([0-9]+\.[0-9]+) s\)$" "$O/selftest.log" | tr -d '()s ' | sort -n | awk '{t+=$1; a[NR]=$1} END {if (NR) printf "  case times: %d cases, %.1f s in all, median %.2f s\n", NR, t, a[int((NR+1)/2)]}'
awk '/ \([0-9.]+ s\)$/ {x=$(NF-1); gsub(/[()]/, "", x); if (x+0 > 1) n++} END {print "  cases over 1 s: " n+0}' "$O/selftest.log"
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"

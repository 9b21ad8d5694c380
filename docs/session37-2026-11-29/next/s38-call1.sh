#!/usr/bin/env bash
# Session 38, call 1 (about 9 minutes): what session 37 committed after its last GPU call (17e35c3):
#  - aa93275, the scatter's review fixes (bounds kernel grid-stride; shared-memory opt-in checked in
#    scatter_applies): the whole self-test, whose cases 119-122 require a scattered launch;
#  - 3439716, the probe loop gives up on a slot whose claimer found no id: the whole self-test's
#    `slowest N:` lines (session 37: 11.5-17.9 s for PARTITION's 4e6-row grow+retry cases);
#  - the skewed rules of the lean partition (src/heuristics.c, from call 5's grid, not measured under
#    auto): Zipf 1.0 with one payload should take PARTITION from 2^18, with four from 2^20;
#  - the experiment spec.partition_probe (auto's probe as PARTITION's own launch): auto's cases with
#    it, then an A/B against SORT's probe.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session37-2026-11-29/next/s38-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s38-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
selftest() {	# name, limit, options...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout "$limit" test/bin/device_selftest --require-gpu --quick "$@" > "$O/selftest-$name.log" 2>&1
  echo "selftest $* rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$name.log" | cut -c1-160)"
  echo "  $(grep -c '^ok' "$O/selftest-$name.log") ok, $(grep -c '^FAIL' "$O/selftest-$name.log") FAIL; $(grep -E '^cases with scattered' "$O/selftest-$name.log")"
  grep -E "^FAIL" "$O/selftest-$name.log" | head -8 | cut -c1-400
}
summary() {	# csv: auto against the best forced strategy at each point
  python3 - "$1" <<'PY'
import csv, collections, sys
pts = collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    pts[(r['key_bytes'], r['payloads'], r['dist'], r['log2_g'])][r['method']] = (float(r['seconds']) * 1e3, r['strategy_used'])
for k, m in sorted(pts.items()):
    forced = [(v[0], n) for n, v in m.items() if n not in ('thrust', 'auto')]
    if 'auto' not in m or not forced:
        continue
    best = min(forced)
    print(f"  {k[0]}B {k[1]}P {k[2]} 2^{k[3]}: auto {m['auto'][0]:.1f} ms ({m['auto'][1]}), best {best[1]} {best[0]:.1f}, "
          f"auto/best {m['auto'][0] / best[0]:.2f}" + (f", thrust/auto {m['thrust'][0] / m['auto'][0]:.2f}" if 'thrust' in m else ""))
PY
}
selftest all 330
selftest auto-probe 60 --strategy auto --partition-probe
# The skewed rules under auto (every method, so auto/best is of this run).
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 90 test/bin/kernelbench --bw-gib 1 --max-seconds 80 --keys 4,8 --payloads 1,4 \
  --dists zipf1.0 --log2-groups 16:22:2 --csv "$O/skewed.csv" --md "$O/skewed.md" > "$O/skewed.log" 2>&1
echo "skewed rules rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/skewed.md")"
summary "$O/skewed.csv"
# PARTITION's own launch as auto's probe, against SORT's (forced PARTITION is the yardstick).
for pp in off on; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 70 test/bin/kernelbench --bw-gib 1 --max-seconds 60 --keys 4,8 --payloads 1,4 \
    --dists uniform,zipf1.0 --log2-groups 20:24:2 --methods partition,auto --partition-probe $pp \
    --csv "$O/probe-$pp.csv" --md "$O/probe-$pp.md" > "$O/probe-$pp.log" 2>&1
  echo "partition probe $pp rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/probe-$pp.md")"
done
python3 test/kernelbench/ab_table.py "$O/probe-off.csv" "$O/probe-on.csv" | grep -E "^\|"
summary "$O/probe-on.csv"
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"

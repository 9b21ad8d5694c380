#!/usr/bin/env bash
# Session 38, call 2 (about 6 minutes): the two changes after call 1, and the run-time correction's
# cost at 2^28 rows.
#  - PARTITION's own probe is now auto's default (spec.partition_sort_probe keeps SORT's): the
#    self-test under auto, and with --sort-probe for the old probe's A/B;
#  - PARTITION_FILL_SLACK (src/heuristics.c): auto's bits should now match forced PARTITION's at
#    2^20 / 2^22 groups, so auto scatters too; cases 119-122 (7e5 / 3.5e5 keys) must scatter;
#  - Zipf 1.5 with PARTITION's probe: a hot key in the probe's generic kernel (bounded by the probe's
#    rows, GPUGB_DEVICE_PROBE_ROWS);
#  - kernelbench --estimate-scale 1e-5 / 1e5 against 1 (issue 3, item 3).
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session38-2026-11-29/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s38-call2}; mkdir -p "$O"
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
selftest auto 90 --strategy auto
selftest scattered 90 --strategy partition --only "partition scattered"
# auto with PARTITION's probe (the default) against SORT's, forced PARTITION as the yardstick; Zipf 1.5
# for the hot key in the probe's generic kernel.
for pp in off on; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 80 test/bin/kernelbench --bw-gib 1 --max-seconds 70 --keys 4,8 --payloads 1,4 \
    --dists uniform,zipf1.0,zipf1.5 --log2-groups 20:24:2 --methods partition,auto --partition-probe $pp \
    --csv "$O/probe-$pp.csv" --md "$O/probe-$pp.md" > "$O/probe-$pp.log" 2>&1
  echo "partition probe $pp rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/probe-$pp.md")"
done
python3 test/kernelbench/ab_table.py "$O/probe-off.csv" "$O/probe-on.csv" | grep -E "^\|"
summary "$O/probe-on.csv"
grep -E "auto .*used" "$O/probe-on.log" | grep -oE "partition launches: [^)]*" | sort | uniq -c
# The planner's estimate far off: every method is given the true groups times 1e-5 or 1e5.
for scale in 1 1e-5 1e5; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 65 test/bin/kernelbench --bw-gib 1 --max-seconds 55 --keys 4 --payloads 1 \
    --dists uniform,zipf1.0 --log2-groups 10,16,22 --estimate-scale $scale \
    --csv "$O/est-$scale.csv" --md "$O/est-$scale.md" > "$O/est-$scale.log" 2>&1
  echo "estimate x$scale rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/est-$scale.md")"
done
python3 - "$O" <<'PY'
import csv, sys
O = sys.argv[1]
t = {}
for scale in ('1', '1e-5', '1e5'):
    try:
        for r in csv.DictReader(open(f"{O}/est-{scale}.csv")):
            t[(scale, r['dist'], r['log2_g'], r['method'])] = (float(r['seconds']) * 1e3, r['strategy_used'])
    except FileNotFoundError:
        pass
for dist in ('uniform', 'zipf1.0'):
    for g in ('10', '16', '22'):
        for m in ('auto', 'private_hash', 'shared_hash', 'global_hash', 'sort', 'partition', 'thrust'):
            row = [t.get((s, dist, g, m)) for s in ('1', '1e-5', '1e5')]
            if row[0] is None:
                continue
            cells = "  ".join(f"x{s}: {v[0]:8.1f} ms ({v[1]})" if v else f"x{s}: -" for s, v in zip(('1', '1e-5', '1e5'), row))
            print(f"  {dist} 2^{g} {m:12s} {cells}")
PY
gzip -9 "$O"/*.log
cd "$O" && tar czf call2.tgz ./*.csv ./*.md ./*.log.gz && rm -f ./*.csv ./*.md ./*.log.gz
echo "total $(( $(date +%s) - T0 )) s"
